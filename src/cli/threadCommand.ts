// `baton thread enable [PROJECT]` and `baton thread disable`: the project's
// hand-over shared with cloud agents through the repository, and taken out.
import { usage } from '../core/errors';
import { homeOf } from '../app/projectDir';
import { disableThread, enableThread, type ThreadOutcome } from '../app/repoThread';
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

export async function thread(ctx: Context, { values, positionals }: CommandInput<'thread'>): Promise<number> {
  const [action, ...rest] = positionals;
  let outcome: ThreadOutcome;
  if (action === 'enable') {
    if (rest.length > 1) throw usage(`One project at a time; got ${rest.join(', ')}.\n${usageLine('thread')}`);
    const scope = ctx.project(rest[0] ?? str(values.project));
    outcome = await enableThread(ctx.core(), { scope, cwd: ctx.io.cwd, home: homeOf(ctx.io.env), vault: ctx.vault });
  } else if (action === 'disable') {
    if (rest.length || values.project !== undefined) throw usage(`disable takes no project: it takes out what enable put in this repository.\n${usageLine('thread')}`);
    outcome = await disableThread({ cwd: ctx.io.cwd });
  } else {
    throw usage(`${action === undefined ? 'Enable or disable?' : `Unknown action "${action}".`}\n${usageLine('thread')}`);
  }
  if (values.json) ctx.json({ folder: outcome.folder, written: outcome.written, removed: outcome.removed });
  else ctx.io.out(render(action, outcome));
  return 0;
}
