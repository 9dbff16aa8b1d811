// `baton blame FILE [--json]`: which checkpointed session wrote each line of a
// file. A file git cannot blame (outside a repository, untracked, binary) is an
// answer with no lines, exit 0; a file that does not exist, or a git that
// failed, exits 1 with the sentence saying so.
import * as path from 'path';
import { refused, usage } from '../core/errors';
import { renderBlame } from '../core/blameText';
import { blame as blameFile } from '../app/blame';
import { claimJson, claimsOfCheckpoints, folderFor } from '../app/shownClaims';
import type { CommandInput } from './commands';
import type { Context } from './context';
import { usageLine } from './usage';

export async function blame(ctx: Context, { values, positionals }: CommandInput<'blame'>): Promise<number> {
  if (positionals.length !== 1) throw usage(usageLine('blame'));
  const target = path.resolve(ctx.io.cwd, positionals[0]);
  const { report, ranges } = await blameFile(ctx.core(), target);
  if (report.reason === 'missing' || report.reason === 'failed') throw refused(report.nothing ?? `Cannot blame ${positionals[0]}.`);
  // The sessions' claims, judged against the file's own working tree (only its own scope's checkpoints: app/shownClaims.ts).
  const claims = claimsOfCheckpoints(
    ranges.map((r) => r.checkpoint),
    folderFor(path.dirname(target), ctx.io.env),
  );
  if (values.json) {
    const { file, project, lines } = report;
    const judged = [...claims].map(([slug, checks]) => ({ slug, claims: checks.map(claimJson) }));
    const more = judged.length ? { claims: judged } : {};
    ctx.json(report.nothing ? { file, project, lines, reason: report.reason, message: report.nothing } : { file, project, lines, ...more });
  } else {
    ctx.io.out(renderBlame(report, Math.floor(Date.now() / 1000), claims));
  }
  return 0;
}
