// Where the repository stands for a shell run (one git process, no untracked
// scan: a hook after every shell call must stay cheap) and which files a
// session changed (for a checkpoint's evidence, once per checkpoint).
import { runGit } from './gitRun';

/** A hook waits this long for git at most; past it the run is recorded with what is known. */
const HEAD_MS = 3000;

/**
 * HEAD's sha and whether tracked files differ from it, from one `git status
 * --porcelain=v2 --branch --untracked-files=no`: its `# branch.oid` header
 * is HEAD. Untracked files are not counted (listing them walks the whole
 * tree). Outside git, or when git fails: head "" and dirty null.
 */
export async function headState(dir: string): Promise<{ head: string; dirty: boolean | null }> {
  if (!dir) return { head: '', dirty: null };
  const r = await runGit(dir, ['status', '--porcelain=v2', '--branch', '--untracked-files=no', '-z'], { timeoutMs: HEAD_MS });
  if (r.code !== 0) return { head: '', dirty: null };
  const records = r.out.split('\0').filter(Boolean);
  const oid = records.find((l) => l.startsWith('# branch.oid '))?.slice('# branch.oid '.length) ?? '';
  return { head: /^[0-9a-f]{7,64}$/.test(oid) ? oid : '', dirty: records.some((l) => !l.startsWith('#')) };
}

/**
 * Repo-relative paths the working tree changed since `base` (commits and
 * uncommitted edits of tracked files alike), [] when git cannot tell. Paths
 * are as git prints them with `-z`: verbatim, from the top level.
 */
export async function changedSince(dir: string, base: string): Promise<string[]> {
  if (!dir || !/^[0-9a-f]{4,64}$/i.test(base)) return [];
  const r = await runGit(dir, ['diff', '--name-only', '-z', '--no-renames', base, '--']);
  return r.code === 0 ? r.out.split('\0').filter(Boolean) : [];
}

/** The repository's top level above `dir`, "" outside git. */
export async function topLevel(dir: string): Promise<string> {
  if (!dir) return '';
  const r = await runGit(dir, ['rev-parse', '--show-toplevel']);
  return r.code === 0 ? r.out.trim() : '';
}
