// `baton stats [PROJECT] [--json]`: how many sessions are open, resumed,
// closed, auto-closed and abandoned (definitions in sessionStats.ts).
import { usage } from '../core/errors';
import { safeScope, rootProject } from '../core/names';
import { vaultStats } from '../app/sessionStats';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';

export async function stats(ctx: Context, { values, positionals }: CommandInput<'stats'>): Promise<number> {
  if (positionals.length > 1) throw usage(`One project at a time; got ${positionals.join(', ')}.`);
  const given = positionals[0] ?? str(values.project);
  const project = given ? rootProject(safeScope(given)) : undefined;
  const s = await vaultStats(ctx.core(), project);
  if (values.json) {
    ctx.json(s);
    return 0;
  }
  const line = (name: string, c: typeof s): string =>
    `${name}  ${c.total} session(s): ${c.open} open, ${c.resumed} resumed, ${c.closed} closed, ${c.autoClosed} auto-closed, ${c.abandoned} abandoned`;
  const lines = [line(project ?? 'all projects', s)];
  if (!project) for (const [name, c] of Object.entries(s.projects)) lines.push(`  ${line(name, { ...c, projects: {} })}`);
  ctx.io.out(lines.join('\n') + '\n');
  return 0;
}
