// `baton thread enable [PROJECT]` and `baton thread disable`: the project's
// hand-over shared with cloud agents through the repository, and taken out;
// `pull` brings the checkpoints they left on their branches into the vault,
// `status` says whether the committed hand-over is behind it.
import { usage } from '../core/errors';
import { ident } from '../core/quoted';
import { homeOf } from '../app/projectDir';
import { disableThread, enableThread, type ThreadOutcome } from '../app/repoThread';
import { pullThread, type PullReport } from '../app/threadPull';
import { threadHere, threadStatus, type ThreadStatus } from '../app/threadRefresh';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';
import { usageLine } from './usage';

function render(action: 'enable' | 'disable', o: ThreadOutcome): string {
  const out = [...o.written.map((p) => `wrote    ${p}`), ...o.removed.map((p) => `removed  ${p}`)];
  if (!out.length) out.push(action === 'enable' ? `Nothing to change: ${o.folder}/ is up to date.` : `Nothing to take out: the thread is not shared here.`);
  if (o.masked) out.push(`Masked ${o.masked} secret(s) in the shared hand-over.`);
  out.push(...o.notes.map((n) => `Note: ${n}`));
  if (o.written.length || o.removed.length) {
    out.push('', 'Commit these files to share the change (cloud agents read the default branch):', `  git add -A ${[...o.written, ...o.removed].join(' ')}`);
  }
  return out.join('\n') + '\n';
}

/** Names from a branch are the agents' text: quoted when not plain, so a terminal prints them inert. */
function renderPull(r: PullReport): string {
  const out = r.imported.map((i) => `imported ${ident(i.file)} from ${ident(i.branch)} as checkpoint ${i.session} (${i.agent})`);
  out.push(...r.rejected.map((x) => `rejected ${ident(x.file)} on ${ident(x.branch)}: ${x.reason}`));
  if (!r.imported.length) out.push('No new checkpoint on any branch.');
  if (r.masked) out.push(`Masked ${r.masked} secret(s) in what was imported.`);
  return out.join('\n') + '\n';
}

function renderStatus(s: ThreadStatus): string {
  const said = { current: 'current', behind: 'behind the vault', uncommitted: 'not committed', missing: 'missing' };
  const c = s.checkpoints;
  const lines = [
    `Thread of ${ident(s.project)} in ${s.folder}/: the committed hand-over is ${said[s.committed]}; the working tree's is ${said[s.workingTree]}.`,
    `Checkpoint files on the branches: ${c.pulled} pulled, ${c.unpulled} not pulled yet${c.refused ? `, ${c.refused} a pull refuses` : ''}.`,
  ];
  if (c.unpulled) lines.push('Run baton thread pull to bring them into the vault.');
  if (s.committed !== 'current') lines.push(`The next checkpoint here rewrites ${s.folder}/HANDOVER.md; commit it with your work.`);
  if (c.inWorkingTree) lines.push(`${c.inWorkingTree} pulled file(s) are still in ${s.folder}/checkpoints/: the next checkpoint here takes them out.`);
  return lines.join('\n') + '\n';
}

export async function thread(ctx: Context, { values, positionals }: CommandInput<'thread'>): Promise<number> {
  const [action, ...rest] = positionals;
  if (action === 'pull' || action === 'status') {
    if (rest.length > 1) throw usage(`One project at a time; got ${rest.join(', ')}.\n${usageLine('thread')}`);
    const given = rest[0] ?? str(values.project);
    const scope = given === undefined ? undefined : ctx.project(given);
    if (action === 'status') {
      const s = await threadStatus(ctx.core(), { cwd: ctx.io.cwd, scope, home: homeOf(ctx.io.env), vault: ctx.vault });
      if (values.json) ctx.json(s);
      else ctx.io.out(renderStatus(s));
      return 0;
    }
    const here = await threadHere(ctx.io.cwd, scope);
    const r = await pullThread(ctx.core(), { root: here.root, scope: here.project });
    if (values.json) ctx.json({ imported: r.imported, rejected: r.rejected });
    else ctx.io.out(renderPull(r));
    return 0;
  }
  let outcome: ThreadOutcome;
  if (action === 'enable') {
    if (rest.length > 1) throw usage(`One project at a time; got ${rest.join(', ')}.\n${usageLine('thread')}`);
    const scope = ctx.project(rest[0] ?? str(values.project));
    outcome = await enableThread(ctx.core(), { scope, cwd: ctx.io.cwd, home: homeOf(ctx.io.env), vault: ctx.vault });
  } else if (action === 'disable') {
    if (rest.length || values.project !== undefined) throw usage(`disable takes no project: it takes out what enable put in this repository.\n${usageLine('thread')}`);
    outcome = await disableThread({ cwd: ctx.io.cwd });
  } else {
    throw usage(`${action === undefined ? 'Enable, disable, pull or status?' : `Unknown action "${action}".`}\n${usageLine('thread')}`);
  }
  if (values.json) ctx.json({ folder: outcome.folder, written: outcome.written, removed: outcome.removed });
  else ctx.io.out(render(action, outcome));
  return 0;
}
