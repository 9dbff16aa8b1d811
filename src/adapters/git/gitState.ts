// Git state for a checkpoint's frontmatter (branch, commit, dirty files,
// linked worktree), read through simple-git.
//
// Running git in a folder runs that repository's configuration: `git status`
// may start a `core.fsmonitor` program or a `filter.<x>.clean` driver named in
// `.git/config` and `.gitattributes`. A cloned repository can therefore run
// code here. Nothing in this file can turn that off without also breaking
// legitimate setups (git-lfs, the builtin fsmonitor), so the guard is the
// caller's: in an untrusted workspace it passes `enabled: false` and no git
// process is started at all.
import * as path from 'path';
import { simpleGit } from 'simple-git';
import type { SimpleGit } from 'simple-git';
import { emptyGit } from '../../core/model';
import { gitEnv } from './gitEnv';
import type { GitState } from '../../core/model';

/** The frontmatter's `touched` holds at most this many paths. */
export const MAX_TOUCHED = 20;

// A hung git (a network filesystem, a huge repository with a cold cache) must
// not hang a hook or a checkpoint: past this much silence the process is
// killed and the state is reported unreadable, never clean.
const SILENCE_LIMIT_MS = 10_000;

export { gitEnv };

/**
 * A simple-git client for `dir` with Baton's environment and silence limit.
 * Throws (synchronously) when `dir` is not an existing folder; callers that
 * must never throw catch that. The user's own config-file variables
 * (GIT_CONFIG_GLOBAL, GIT_CONFIG_COUNT…) are kept and allowed, so git answers
 * as it would in their terminal (their `safe.directory`, for one).
 */
export function gitIn(dir: string): SimpleGit {
  return simpleGit({
    baseDir: dir,
    timeout: { block: SILENCE_LIMIT_MS },
    unsafe: { allowUnsafeConfigPaths: true, allowUnsafeConfigEnvCount: true },
  }).env(gitEnv());
}

/** True for git's "not a git repository" refusal; every other failure is "unreadable". */
function isNotARepository(err: unknown): boolean {
  return /not a git repository/i.test(err instanceof Error ? err.message : String(err));
}

/**
 * Reads the git state of the folder `dir` for a checkpoint.
 *
 * Never throws and never reports a state it could not read as clean:
 * - `enabled: false` (an untrusted workspace) returns an empty state marked
 *   `unreadable` without starting any process;
 * - a folder that is not in a repository (or does not exist) is `emptyGit()`;
 * - git missing from PATH, a corrupt index, a timeout, a repository git refuses
 *   (dubious ownership) give `unreadable: true`, with whatever else was read;
 * - a repository with no commits has its branch and dirty files, commit "".
 * A detached HEAD records branch "" (not "HEAD"): the frontmatter then has no
 * `branch` key, and the commit alone says where the work stood.
 */
export async function readGitState(dir: string, opts: { enabled?: boolean } = {}): Promise<GitState> {
  if (opts.enabled === false) return { ...emptyGit(), unreadable: true };
  let git: SimpleGit;
  try {
    git = gitIn(dir);
  } catch {
    return emptyGit();
  }
  // Each call on the root client runs in its own chain, so these three run in
  // parallel and one failing (log, in a repository with no commits) does not
  // cancel the others.
  const [where, status, head] = await Promise.allSettled([
    git.raw(['rev-parse', '--git-dir', '--git-common-dir', '--show-toplevel']),
    git.raw(['status', '--porcelain=v1', '-z', '--branch', '--untracked-files=normal']),
    git.raw(['log', '-1', '--format=%h%x00%s']),
  ]);
  if (where.status === 'rejected') {
    return isNotARepository(where.reason) ? emptyGit() : { ...emptyGit(), unreadable: true };
  }

  const state = emptyGit();
  state.worktree = linkedWorktree(dir, where.value);
  // A failed `log` is a repository with no commits yet (or one git cannot
  // walk): commit stays "", which says nothing about the dirty files.
  if (head.status === 'fulfilled') {
    const line = head.value.replace(/\r?\n$/, '');
    const cut = line.indexOf('\0');
    if (cut > 0) {
      state.commit = line.slice(0, cut);
      state.subject = line.slice(cut + 1);
    }
  }
  if (status.status === 'rejected') {
    state.unreadable = true;
    return state;
  }
  const parsed = parseStatus(status.value);
  state.branch = parsed.branch;
  state.dirty = parsed.paths.length;
  state.files = parsed.paths.slice(0, MAX_TOUCHED);
  return state;
}

/**
 * The top-level path when git's own directory differs from the shared one:
 * that is exactly a linked worktree (a submodule has both equal, so it is not
 * taken for one). Paths git prints relative are relative to `dir`.
 */
function linkedWorktree(dir: string, revParse: string): string {
  const [gitDir = '', commonDir = '', ...rest] = revParse.replace(/\r?\n$/, '').split('\n');
  const top = rest.join('\n');
  if (!gitDir || !commonDir || !top) return '';
  return path.resolve(dir, gitDir) === path.resolve(dir, commonDir) ? '' : top;
}

interface ParsedStatus {
  branch: string;
  paths: string[];
}

/**
 * Parses `status --porcelain=v1 -z --branch`. With `-z` paths are verbatim
 * (no quoting) and a rename is `R  new\0old\0`: the new path is kept, the old
 * one skipped, so a rename counts once. The `## ` header is not translated in
 * porcelain mode, whatever the locale.
 */
export function parseStatus(out: string): ParsedStatus {
  const records = out.split('\0');
  const result: ParsedStatus = { branch: '', paths: [] };
  for (let i = 0; i < records.length; i++) {
    const rec = records[i];
    if (rec.startsWith('## ')) {
      result.branch = branchOf(rec.slice(3));
      continue;
    }
    if (rec.length < 4) continue;
    result.paths.push(rec.slice(3));
    if (rec[0] === 'R' || rec[0] === 'C') i++;
  }
  return result;
}

/**
 * The branch in a `## ` header. In a repository with no commits it is the
 * branch HEAD names (what `symbolic-ref --short HEAD` would say), read here
 * without starting another process.
 */
function branchOf(header: string): string {
  // "No commits yet on" since git 2.15, "Initial commit on" before it.
  const unborn = /^(?:No commits yet on|Initial commit on) (.+)$/.exec(header);
  if (unborn) return unborn[1];
  if (header.startsWith('HEAD (no branch)')) return '';
  // "main...origin/main [ahead 1]": a branch name can hold neither ".." nor a space.
  return header.split('...')[0].split(' ')[0];
}
