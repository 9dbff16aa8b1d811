// Commands that read: resume, sessions (and --close), plans, continuity, why, index, project-name.
import * as path from 'path';
import { usage } from '../core/errors';
import { renderHandover, renderSessions, renderTouches } from '../core/handover';
import { ident, quote } from '../core/quoted';
import { checkpointJson } from '../core/publicJson';
import { age } from '../core/time';
import { folderOfScope } from '../app/evidence';
import { resume as resumeScope } from '../app/resume';
import { scopeOfFolder } from '../app/scope';
import { basicMemoryDir, why as whyTouched } from '../app/why';
import { claimJson, claimsOfSlugs, folderFor } from '../app/shownClaims';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';
import { usageLine } from './usage';

const now = (): number => Math.floor(Date.now() / 1000);

function projectArg(ctx: Context, values: Record<string, unknown>, positionals: string[]): string {
  if (positionals.length > 1) throw usage(`One project at a time; got ${positionals.join(', ')}.`);
  return ctx.project(positionals[0] ?? str(values.project));
}

export async function resume(ctx: Context, { values, positionals }: CommandInput<'resume'>): Promise<number> {
  const scope = projectArg(ctx, values, positionals);
  const folder = folderOfScope(scope, ctx.io.cwd, ctx.io.env);
  const view = await resumeScope(ctx.core(), scope, { agent: ctx.agent(undefined), via: 'cli', now: now(), folder });
  if (values.json) ctx.json({ ...view, latest: view.latest ? checkpointJson(view.latest) : null });
  else ctx.io.out(renderHandover(view, now()));
  return 0;
}

export async function sessions(ctx: Context, { values, positionals }: CommandInput<'sessions'>): Promise<number> {
  const scope = projectArg(ctx, values, positionals);
  const close = str(values.close);
  if (close !== undefined) {
    const cp = await ctx.core().closeAbandoned(scope, close);
    if (values.json) ctx.json(checkpointJson(cp));
    else ctx.io.out(`Closed ${close}: wrote auto-closed checkpoint ${cp.slug}.md\n`);
    return 0;
  }
  const view = await ctx.core().sessions(scope);
  if (values.json) {
    ctx.json({ ...view, checkpoints: view.checkpoints.map(checkpointJson) });
    return 0;
  }
  ctx.io.out(renderSessions(view, now(), { listNotes: true, closeCommand: true }));
  return 0;
}

export async function plans(ctx: Context, { values, positionals }: CommandInput<'plans'>): Promise<number> {
  const list = await ctx.core().plans(projectArg(ctx, values, positionals));
  if (values.json) ctx.json(list);
  else ctx.io.out(list.length ? list.flatMap((p) => [`${ident(p.slug)}  ${ident(p.agent)}`, ...quote(p.title)]).join('\n') + '\n' : 'No plans.\n');
  return 0;
}

export async function continuity(ctx: Context, { values }: CommandInput<'continuity'>): Promise<number> {
  const list = await ctx.core().continuity();
  if (values.json) {
    // The contract shape Logos shares: whose (machines, person) is the editor's, not part of it.
    ctx.json(list.map(({ scopes: _scopes, lastMachine: _m, lastPerson: _p, machines: _ms, ...rest }) => rest));
    return 0;
  }
  const t = now();
  const lines = list.map((p) => {
    const last = p.lastCheckpoint ? `last ${age(t - p.lastCheckpoint)} ago by ${ident(p.lastAgent)}` : 'never checkpointed';
    const flags = [p.quiet ? 'quiet' : 'ok', p.uncommitted ? `${p.uncommitted} uncommitted` : '', p.abandoned ? `${p.abandoned} abandoned` : ''].filter(Boolean);
    return `${ident(p.project)}  ${p.checkpoints} checkpoint(s), ${last}  [${flags.join(', ')}]`;
  });
  ctx.io.out(lines.length ? lines.join('\n') + '\n' : `The vault ${ctx.vault} has no projects yet.\n`);
  return 0;
}

export async function why(ctx: Context, { values, positionals }: CommandInput<'why'>): Promise<number> {
  if (positionals.length !== 1) throw usage(usageLine('why'));
  const limitRaw = str(values.limit);
  const limit = limitRaw === undefined ? 20 : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 0) throw usage(`--limit must be a whole number, got "${limitRaw}".`);
  const bm = basicMemoryDir(str(values['basic-memory']), ctx.io.env);
  const touches = await whyTouched(ctx.core(), positionals[0], limit, bm);
  // Claims are judged only for checkpoints of the project this folder is (app/shownClaims.ts).
  const { claims, unjudged } = await claimsOfSlugs(
    ctx.core(),
    touches.filter((t) => t.origin === 'baton').map((t) => t.slug),
    folderFor(ctx.io.cwd, ctx.io.env),
  );
  if (values.json) {
    const withClaims = touches.map((t) => (claims.has(t.slug) ? { ...t, claims: (claims.get(t.slug) ?? []).map(claimJson) } : t));
    // The origin is said only once a second source is read: Baton's own answer keeps its contract shape.
    ctx.json(bm ? withClaims : withClaims.map(({ origin: _origin, ...t }) => t));
    return 0;
  }
  ctx.io.out(renderTouches(positionals[0], touches, now(), claims, unjudged));
  return 0;
}

export async function index(ctx: Context, { values }: CommandInput<'index'>): Promise<number> {
  const r = await ctx.core().reindex();
  if (values.json) ctx.json(r);
  else ctx.io.out(`Indexed ${r.checkpoints} checkpoint(s); restored ${r.restored} note(s) from the vault; wrote out ${r.rescued} pending note(s).\n`);
  return 0;
}

export async function projectName(ctx: Context, { positionals }: CommandInput<'project-name'>): Promise<number> {
  const dir = positionals[0] ?? ctx.io.cwd;
  const scope = scopeOfFolder(path.resolve(ctx.io.cwd, dir));
  if (!scope) throw usage(`${dir} has no project (it is the home folder or the root).`);
  ctx.io.out(`${scope}\n`);
  return 0;
}
