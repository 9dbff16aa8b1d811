// "Has this file changed since that checkpoint?" for the editor hover.
import { gitIn } from './gitState';

/**
 * True when the history of HEAD holds a commit touching `file` (relative to
 * `dir`, or absolute inside its work tree) whose committer time is after the
 * unix time `sinceTs`.
 *
 * It answers only about commits, not unsaved or uncommitted edits. Any failure
 * (not a repository, git missing, a file outside the work tree, a timeout,
 * `enabled: false` in an untrusted workspace) is `false`: the hover then stays
 * silent rather than claiming a change it could not see, and never throws.
 * The committer time is compared here rather than through `--since`, whose
 * date parsing would read a bare unix number as something else; the path is
 * literal, so `app/[id]/page.tsx` is not taken for a glob.
 */
export async function fileChangedSince(
  dir: string,
  file: string,
  sinceTs: number,
  opts: { enabled?: boolean } = {},
): Promise<boolean> {
  if (opts.enabled === false || !file || !Number.isFinite(sinceTs)) return false;
  try {
    const out = await gitIn(dir).raw(['--literal-pathspecs', 'log', '-1', '--format=%ct', 'HEAD', '--', file]);
    const ts = Number.parseInt(out.trim(), 10);
    return Number.isFinite(ts) && ts > sinceTs;
  } catch {
    return false;
  }
}
