// `baton import [AGENT...] [--since TIME] [--project P] [--dry-run] [--json]`:
// the agents' past sessions as checkpoints (app/importSessions.ts). Progress
// goes to stderr, so --json on stdout stays one document.
import { usage } from '../core/errors';
import { homeOf } from '../app/projectDir';
import type { ImportAgent } from '../core/importAgents';
import { IMPORT_AGENTS } from '../core/importAgents';
import { importSessions } from '../app/importSessions';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';

const isAgent = (a: string): a is ImportAgent => (IMPORT_AGENTS as readonly string[]).includes(a);

export async function importPast(ctx: Context, { values, positionals }: CommandInput<'import'>): Promise<number> {
  const wrong = positionals.filter((a) => !isAgent(a));
  if (wrong.length) throw usage(`Unknown agent ${wrong.map((a) => JSON.stringify(a)).join(', ')}: baton import reads ${IMPORT_AGENTS.join(', ')}.`);
  const agents = positionals.length ? [...new Set(positionals.filter(isAgent))] : IMPORT_AGENTS;
  const since = ctx.time(str(values.since));
  const report = await importSessions(ctx.core(), {
    vaultRoot: ctx.vault,
    home: homeOf(ctx.io.env),
    env: ctx.io.env,
    agents,
    since,
    project: str(values.project),
    dryRun: values['dry-run'] === true,
    progress: (line) => ctx.io.err(`${line}\n`),
  });
  if (values.json) {
    ctx.json(report);
    return 0;
  }
  const lines = report.checkpoints.map((c) => `${report.dryRun ? 'would import' : 'imported'}  ${c.agent}  ${c.project}  ${c.session || c.agentSession}  ${c.source}`);
  for (const s of report.skipped) lines.push(`skipped  ${s.source}: ${s.reason}`);
  lines.push(
    report.dryRun
      ? `${report.checkpoints.length} session(s) would be imported, ${report.skipped.length} skipped; nothing written.`
      : `${report.imported} session(s) imported, ${report.skipped.length} skipped.`,
  );
  ctx.io.out(lines.join('\n') + '\n');
  return 0;
}
