// `baton blame FILE [--json]`: which checkpointed session wrote each line of a
// file. A file git cannot blame (outside a repository, untracked, binary) is an
// answer with no lines, exit 0; a file that does not exist, or a git that
// failed, exits 1 with the sentence saying so.
import * as path from 'path';
import { refused, usage } from '../core/errors';
import { renderBlame } from '../core/blameText';
import { blame as blameFile } from '../app/blame';
import type { CommandInput } from './commands';
import type { Context } from './context';
import { usageLine } from './usage';

export async function blame(ctx: Context, { values, positionals }: CommandInput<'blame'>): Promise<number> {
  if (positionals.length !== 1) throw usage(usageLine('blame'));
  const { report } = await blameFile(ctx.core(), path.resolve(ctx.io.cwd, positionals[0]));
  if (report.reason === 'missing' || report.reason === 'failed') throw refused(report.nothing ?? `Cannot blame ${positionals[0]}.`);
  if (values.json) {
    const { file, project, lines } = report;
    ctx.json(report.nothing ? { file, project, lines, reason: report.reason, message: report.nothing } : { file, project, lines });
  } else {
    ctx.io.out(renderBlame(report, Math.floor(Date.now() / 1000)));
  }
  return 0;
}
