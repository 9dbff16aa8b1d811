// Commands that write to the vault: note, checkpoint, handoff, plan.
import { parseBody } from '../core/checkpointBody';
import { usage } from '../core/errors';
import type { CheckpointFields } from '../core/model';
import { checkpointFields } from '../app/checkpointFields';
import { commitCoverage, gitStateOf } from '../app/commit';
import { parse, str, type Options } from './args';
import type { Context } from './context';

const common: Options = {
  project: { type: 'string', short: 'p' },
  agent: { type: 'string', short: 'a' },
  at: { type: 'string' },
};

const checkpointOptions: Options = {
  ...common,
  task: { type: 'string' },
  intent: { type: 'string' },
  state: { type: 'string' },
  next: { type: 'string' },
  decided: { type: 'string', multiple: true },
  failed: { type: 'string', multiple: true },
  verified: { type: 'string', multiple: true },
  blocker: { type: 'string', multiple: true },
  ran: { type: 'string', multiple: true },
  question: { type: 'string', multiple: true },
  file: { type: 'string', multiple: true },
  handoff: { type: 'string' },
  json: { type: 'boolean' },
};

const CHECKPOINT_HELP =
  '[--project P] [--agent A] [--at TIME] [--task T] [--intent I] [--state S] [--next N] [--decided D]... [--failed F]... ' +
  '[--verified V]... [--blocker B]... [--ran CMD]... [--question Q]... [--file PATH]... [--handoff WHO] [--json]';

export async function note(ctx: Context, args: string[]): Promise<number> {
  const { values, positionals } = parse('note', args, { ...common, json: { type: 'boolean' } }, '[--project P] [--agent A] [--at TIME] TEXT...');
  const text = positionals.join(' ');
  if (!text.trim()) throw usage('What is the note? Usage: baton note [--project P] [--agent A] TEXT...');
  const r = await ctx.core().note(ctx.project(str(values.project)), ctx.agent(str(values.agent)), text, ctx.time(str(values.at)));
  if (values.json) ctx.json({ ...r.note, durable: r.durable, redactions: r.redactions });
  if (r.redactions) ctx.io.err(`Masked ${r.redactions} secret(s) before writing.\n`);
  if (!r.durable) ctx.io.err(`The note was kept in ${ctx.vault}/.baton-live/pending/ but is not yet durable: ${r.reason}\n`);
  return 0;
}

async function fieldsFrom(ctx: Context, values: Record<string, unknown>): Promise<Partial<CheckpointFields>> {
  // The flags' names are the CLI's own; the fields are the model's.
  const flags: Partial<CheckpointFields> = checkpointFields({
    task: values.task,
    intent: values.intent,
    state: values.state,
    next: values.next,
    decisions: values.decided,
    failed: values.failed,
    verified: values.verified,
    blockers: values.blocker,
    commands: values.ran,
    questions: values.question,
    files: values.file,
  });
  const piped = await ctx.io.stdin();
  if (!piped.trim()) return flags;
  // Markdown on stdin fills what the flags left empty; a flag always wins.
  const body = parseBody(piped);
  const out: Record<string, unknown> = { ...flags };
  for (const [key, value] of Object.entries(body)) {
    const current = out[key];
    const empty = Array.isArray(current) ? current.length === 0 : !current;
    if (empty && value !== undefined) out[key] = value;
  }
  return out as Partial<CheckpointFields>;
}

async function commitWith(ctx: Context, command: string, args: string[], to?: string): Promise<number> {
  const options = command === 'handoff' ? { ...checkpointOptions, to: { type: 'string' as const } } : checkpointOptions;
  const { values, positionals } = parse(command, args, options, command === 'handoff' ? `--to WHO ${CHECKPOINT_HELP}` : CHECKPOINT_HELP);
  if (positionals.length) throw usage(`Unexpected "${positionals[0]}": checkpoint text goes in flags (--task "…") or markdown on stdin.`);
  const handoffTo = to ?? str(values.to) ?? str(values.handoff);
  if (command === 'handoff' && !handoffTo?.trim()) throw usage('Who takes over? Usage: baton handoff --to WHO [checkpoint flags]');
  const git = await gitStateOf(ctx.io.cwd);
  const r = await ctx.core().commit({
    scope: ctx.project(str(values.project)),
    agent: ctx.agent(str(values.agent)),
    fields: await fieldsFrom(ctx, values),
    handoffTo,
    at: ctx.time(str(values.at)),
    git,
    coveredCommits: commitCoverage(ctx.io.cwd),
  });
  if (values.json) {
    ctx.json({ session: r.checkpoint.session, slug: r.checkpoint.slug, path: r.path, redactions: r.redactions });
  } else {
    const extras = [r.folded ? `folded ${r.folded} note(s)` : '', r.redactions ? `masked ${r.redactions} secret(s)` : ''].filter(Boolean);
    ctx.io.out(`Checkpoint ${r.checkpoint.session}${handoffTo ? ` for ${r.checkpoint.handoffTo}` : ''}: ${r.path}${extras.length ? ` (${extras.join(', ')})` : ''}\n`);
  }
  return 0;
}

export const checkpoint = (ctx: Context, args: string[]): Promise<number> => commitWith(ctx, 'checkpoint', args);
export const handoff = (ctx: Context, args: string[]): Promise<number> => commitWith(ctx, 'handoff', args);

export async function plan(ctx: Context, args: string[]): Promise<number> {
  const { values, positionals } = parse('plan', args, { ...common, json: { type: 'boolean' } }, '[--project P] [--agent A] [--at TIME] < plan.md');
  const text = (await ctx.io.stdin()) || positionals.join(' ');
  const r = await ctx.core().savePlan(ctx.project(str(values.project)), ctx.agent(str(values.agent)), text, ctx.time(str(values.at)));
  if (values.json) ctx.json({ ...r.plan, redactions: r.redactions });
  else ctx.io.out(`Plan saved: ${r.plan.slug}.md\n`);
  return 0;
}
