// "Has this file changed since that checkpoint?" for the editor hover.
import * as fs from 'fs';
import * as path from 'path';
import { gitIn } from './gitState';

/**
 * The committer time (unix seconds) of the newest commit in HEAD's history
 * touching `file` (relative to `dir`, or absolute inside its work tree); 0 when
 * there is none.
 *
 * It answers only about commits, not unsaved or uncommitted edits. Any failure
 * (not a repository, git missing, a file outside the work tree, a timeout,
 * `enabled: false` in an untrusted workspace) is 0: the hover then stays
 * silent rather than claiming a change it could not see, and never throws.
 * The path is literal, so `app/[id]/page.tsx` is not taken for a glob.
 */
export async function lastCommitTime(dir: string, file: string, opts: { enabled?: boolean } = {}): Promise<number> {
  if (opts.enabled === false || !file) return 0;
  try {
    const out = await gitIn(dir).raw(['--literal-pathspecs', 'log', '-1', '--format=%ct', 'HEAD', '--', file]);
    const ts = Number.parseInt(out.trim(), 10);
    return Number.isFinite(ts) && ts > 0 ? ts : 0;
  } catch {
    return 0;
  }
}

/**
 * True when HEAD's history holds a commit touching `file` after the unix time
 * `sinceTs`. Compared here rather than through `--since`, whose date parsing
 * would read a bare unix number as something else.
 */
export async function fileChangedSince(dir: string, file: string, sinceTs: number, opts: { enabled?: boolean } = {}): Promise<boolean> {
  if (!Number.isFinite(sinceTs)) return false;
  return (await lastCommitTime(dir, file, opts)) > sinceTs;
}

interface GitDirs {
  gitDir: string;
  commonDir: string;
}

/** Answers for files seen, per folder; a hover asks about a handful of files at a time. */
const MAX_FILES = 500;
/** How long "this folder is not a repository" is believed before git is asked again (a `git init` can change it). */
const NOT_A_REPO_MS = 30_000;

/**
 * `lastCommitTime` kept until HEAD moves. A hover otherwise spawns git on
 * every show of the same file; what HEAD points at is read from the git
 * folder itself (HEAD, the branch's ref, packed-refs, a reftable's list), a
 * few `stat`s instead of a process. A commit, checkout, reset, rebase or pull
 * rewrites one of them.
 */
export class FileHistory {
  private readonly dirs = new Map<string, { at: number; dirs: Promise<GitDirs | null> }>();
  private readonly times = new Map<string, { head: string; ts: Promise<number> }>();
  private readonly asking = new Map<string, Promise<number>>();

  lastCommitTime(dir: string, file: string): Promise<number> {
    if (!file) return Promise.resolve(0);
    // Callers asking at once (the lens's prefetch, then the hover) share one answer.
    const key = `${dir}\0${file}`;
    let pending = this.asking.get(key);
    if (!pending) {
      pending = this.ask(dir, file).finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  }

  private async ask(dir: string, file: string): Promise<number> {
    const head = await this.headOf(dir);
    if (head === null) return lastCommitTime(dir, file);
    const key = `${dir}\0${file}`;
    const hit = this.times.get(key);
    if (hit && hit.head === head) return hit.ts;
    const ts = lastCommitTime(dir, file);
    this.times.delete(key);
    if (this.times.size >= MAX_FILES) this.times.delete(this.times.keys().next().value as string);
    this.times.set(key, { head, ts });
    return ts;
  }

  /** A fingerprint of where HEAD points, or null when it cannot be told without git. */
  async headOf(dir: string): Promise<string | null> {
    const dirs = await this.gitDirs(dir);
    if (!dirs) return null;
    try {
      const head = (await fs.promises.readFile(path.join(dirs.gitDir, 'HEAD'), 'utf8')).trim();
      const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
      const files = [path.join(dirs.commonDir, 'packed-refs'), path.join(dirs.commonDir, 'reftable', 'tables.list')];
      if (ref) files.push(path.join(dirs.commonDir, ...ref.split('/')));
      const stats = await Promise.all(
        files.map((f) =>
          fs.promises.stat(f).then(
            (s) => `${s.ino}:${s.size}:${s.mtimeMs}`,
            () => '-',
          ),
        ),
      );
      return `${head}|${stats.join('|')}`;
    } catch {
      return null;
    }
  }

  private async gitDirs(dir: string): Promise<GitDirs | null> {
    const hit = this.dirs.get(dir);
    if (hit) {
      const dirs = await hit.dirs;
      if (dirs || Date.now() - hit.at < NOT_A_REPO_MS) return dirs;
    }
    return this.askGit(dir);
  }

  private askGit(dir: string): Promise<GitDirs | null> {
    // simple-git throws at once, not in the promise, for a folder that does not exist.
    const dirs = Promise.resolve()
      .then(() => gitIn(dir).raw(['rev-parse', '--absolute-git-dir', '--git-common-dir']))
      .then((out) => {
        const [gitDir, common] = out.trim().split('\n');
        return gitDir && common ? { gitDir, commonDir: path.resolve(dir, common) } : null;
      })
      .catch(() => null);
    this.dirs.set(dir, { at: Date.now(), dirs });
    return dirs;
  }
}
