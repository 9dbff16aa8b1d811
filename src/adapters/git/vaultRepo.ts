// The vault's own git repository, as a sync drives it: every command runs in
// the vault's folder and only after `openVaultRepo` checked that this folder
// is the top of its own repository (a vault inside some other repository,
// a home folder under git, is never committed into).
//
// Nothing here writes the person's git config: the identity for Baton's
// commits, when they have none, is given per command (`git -c`, git-config(1):
// "Pass a configuration parameter to the command"), only to the commands that
// commit.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFile } from 'child_process';
import { gitEnv } from './gitState';
import { gitOk, runGit, type GitResult, type GitRunOptions } from './gitRun';
import { LOCAL_DIRS, SESSIONS_DIR } from '../vaultLayout';

export const NETWORK_MS = 120_000;

/** What must never be committed: the cache and the locks (a killed writer's temporary files are kept out by .gitignore). */
export const NEVER_COMMITTED = LOCAL_DIRS;

/** A path of a tree that Baton never takes from another machine, and why. */
export interface Refused {
  path: string;
  reason: string;
}

/** Paths whose content Baton reads or rewrites besides the sessions: they must be plain files too. */
const BATON_FILES = ['.gitignore', '.gitattributes'];
const REGULAR = new Set(['100644', '100755']);

/**
 * Why a tree entry (git-ls-tree(1): mode, path) is not taken from another
 * machine; null when it is. The cache and the locks stay on each machine (a
 * teammate's force-added lock would otherwise stand in this machine's way), a
 * killed write's temporary file is nobody's, and under `sessions/` and for
 * the files Baton rewrites only plain files: Baton would follow a link for a
 * write (out of the vault) or a read (a file outside committed and pushed).
 */
export function refusedEntry(p: string, mode: string): string | null {
  const top = p.split('/')[0];
  if (LOCAL_DIRS.includes(top)) return `${top}/ stays on each machine (the cache, the locks, pending notes); never taken from the remote`;
  if (/^\..*\.tmp$/.test(path.posix.basename(p))) return 'a temporary file of an interrupted write; never taken from the remote';
  if ((top === SESSIONS_DIR || BATON_FILES.includes(p)) && !REGULAR.has(mode)) {
    const what = mode === '120000' ? 'a symbolic link' : mode === '160000' ? 'a submodule' : `not a plain file (mode ${mode})`;
    return `${what}; the vault's files are plain files, so it is left out`;
  }
  return null;
}

export type RepoProblem = { kind: 'notRepo' } | { kind: 'insideOther'; top: string } | { kind: 'detached' } | { kind: 'noUpstream'; branch: string };

export interface Upstream {
  remote: string;
  /** The remote branch, `refs/heads/<name>`. */
  merge: string;
  /** The remote-tracking ref a fetch updates. */
  tracking: string;
  url: string;
}

export interface Unmerged {
  path: string;
  /** Blob ids by stage: 1 the base, 2 ours, 3 theirs; absent when that side has no file. */
  stages: Partial<Record<1 | 2 | 3, string>>;
}

export class VaultRepo {
  private identity?: Record<string, string>;

  constructor(readonly root: string) {}

  git(args: string[], opts: GitRunOptions = {}): Promise<GitResult> {
    return runGit(this.root, args, opts);
  }

  ok(args: string[], opts: GitRunOptions = {}): Promise<string> {
    return gitOk(this.root, args, opts);
  }

  /** The branch HEAD is on; null when detached. */
  async branch(): Promise<string | null> {
    const r = await this.git(['symbolic-ref', '--short', '-q', 'HEAD']);
    return r.code === 0 ? r.out.trim() : null;
  }

  /** The branch's upstream as its config names it (an empty remote has no tracking ref yet, and still is one). */
  async upstream(branch: string): Promise<Upstream | null> {
    const remote = (await this.git(['config', '--get', `branch.${branch}.remote`])).out.trim();
    const merge = (await this.git(['config', '--get', `branch.${branch}.merge`])).out.trim();
    if (!remote || !merge || remote === '.') return null;
    const url = (await this.git(['config', '--get', `remote.${remote}.url`])).out.trim();
    return { remote, merge, tracking: `refs/remotes/${remote}/${merge.replace(/^refs\/heads\//, '')}`, url };
  }

  async hasRef(ref: string): Promise<boolean> {
    return (await this.git(['rev-parse', '-q', '--verify', `${ref}^{commit}`])).code === 0;
  }

  async count(range: string): Promise<number> {
    const r = await this.git(['rev-list', '--count', range]);
    return r.code === 0 ? Number(r.out.trim()) || 0 : 0;
  }

  async inMerge(): Promise<boolean> {
    return this.hasRef('MERGE_HEAD');
  }

  /**
   * The person's identity when they have one; else one for Baton's commits
   * only, given per command, so nothing is written to their config and their
   * own commits elsewhere are untouched.
   */
  async identityConfig(): Promise<Record<string, string>> {
    if (this.identity) return this.identity;
    const name = (await this.git(['config', '--get', 'user.name'])).out.trim();
    const email = (await this.git(['config', '--get', 'user.email'])).out.trim();
    const host = os.hostname().replace(/[^A-Za-z0-9.-]/g, '') || 'localhost';
    const id: Record<string, string> = {};
    if (!name) id['user.name'] = `Baton (${host})`;
    if (!email) id['user.email'] = `baton@${host}.invalid`;
    this.identity = id;
    return id;
  }

  /**
   * Stages every file of the vault but what `.gitignore` keeps out (the sync
   * writes Baton's lines there first), and takes the cache and the locks out
   * of the index if an earlier commit by hand put them there. Returns the
   * staged paths, and what was left out because it is no plain file
   * (`unstageRefused`). (An `:(exclude)` pathspec would make `git add` fail on
   * the ignored folders it names.)
   */
  async stageAll(): Promise<{ staged: string[]; refused: Refused[] }> {
    await this.ok(['add', '-A', '--', '.']);
    await this.ok(['rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', ...NEVER_COMMITTED]);
    const refused = await this.unstageRefused();
    return { staged: await this.staged(), refused };
  }

  /**
   * The index's entries Baton does not share (`refusedEntry`), taken out of
   * the index; the files themselves are left where they are. For a symbolic
   * link a person made under `sessions/`: `git add -A` stages the link itself.
   * What HEAD held there as plain files is staged back as HEAD has it, so the
   * link is not shared as a deletion either.
   */
  async unstageRefused(): Promise<Refused[]> {
    const out = await this.ok(['ls-files', '-s', '-z', '--', SESSIONS_DIR, ...BATON_FILES]);
    const refused: Refused[] = [];
    for (const rec of out.split('\0').filter(Boolean)) {
      const tab = rec.indexOf('\t');
      const p = rec.slice(tab + 1);
      const reason = refusedEntry(p, rec.slice(0, rec.indexOf(' ')));
      if (reason) refused.push({ path: p, reason });
    }
    if (!refused.length) return refused;
    await this.ok(['update-index', '-z', '--force-remove', '--stdin'], { input: refused.map((r) => r.path).join('\0') + '\0' });
    if (await this.hasRef('HEAD')) await this.restore(refused, 'HEAD');
    return refused;
  }

  /** Stages what `commit` held as plain files at or under the refused paths (git-update-index(1) --index-info: `mode SP sha1 TAB path`). */
  private async restore(refused: Refused[], commit: string, env?: Record<string, string>): Promise<void> {
    const back = (await this.entries(commit)).filter((e) => !e.refused && refused.some((r) => e.path === r.path || e.path.startsWith(`${r.path}/`)));
    if (back.length) await this.ok(['update-index', '-z', '--index-info'], { env, input: back.map((e) => `${e.mode} ${e.sha}\t${e.path}\0`).join('') });
  }

  /**
   * The commit `commit`, or when its tree holds what Baton does not take
   * (`refusedEntry`), a commit on top of it without those paths, made in a
   * temporary index: merging that one, git never writes them into this
   * working tree (not over the local cache or locks, not as a link), and it
   * descends from `commit`, so the push after the merge is a fast-forward and
   * the remote is cleaned for everyone. A refused path is left out of the
   * merge, not deleted by it: where the merge base (`base`) held plain files
   * at it or under it (a notes file the remote replaced by a link, a folder
   * by a link to one), they stand in the new commit as the base had them,
   * so the merge sees the remote leave them alone and keeps this side's.
   */
  async withoutRefused(commit: string, base: string, message: string): Promise<{ commit: string; refused: Refused[] }> {
    const refused = await this.refusedIn(commit);
    if (!refused.length) return { commit, refused };
    const gitDir = path.resolve(this.root, (await this.ok(['rev-parse', '--git-dir'])).trim());
    const index = path.join(gitDir, `baton-clean-${process.pid}.index`);
    const env = { GIT_INDEX_FILE: index };
    try {
      await this.ok(['read-tree', commit], { env });
      await this.ok(['update-index', '-z', '--force-remove', '--stdin'], { env, input: refused.map((r) => r.path).join('\0') + '\0' });
      if (base) await this.restore(refused, base, env);
      const tree = (await this.ok(['write-tree'], { env })).trim();
      const cleaned = (await this.ok(['commit-tree', tree, '-p', commit, '-m', message], { config: await this.identityConfig() })).trim();
      return { commit: cleaned, refused };
    } finally {
      await fs.promises.rm(index, { force: true }).catch(() => undefined);
    }
  }

  /** Every entry of a commit's tree, with why Baton does not take it ('' when it does). */
  private async entries(commit: string): Promise<{ path: string; mode: string; sha: string; refused: string }[]> {
    const out = await this.ok(['ls-tree', '-r', '-z', '--full-tree', commit]);
    return out
      .split('\0')
      .filter(Boolean)
      .map((rec) => {
        // `<mode> SP <type> SP <object> TAB <path>` (git-ls-tree(1)).
        const tab = rec.indexOf('\t');
        const [mode, , sha] = rec.slice(0, tab).split(' ');
        const p = rec.slice(tab + 1);
        return { path: p, mode, sha, refused: refusedEntry(p, mode) ?? '' };
      });
  }

  /** The entries of a commit's tree Baton does not take (`refusedEntry`). */
  async refusedIn(commit: string): Promise<Refused[]> {
    return (await this.entries(commit)).filter((e) => e.refused).map((e) => ({ path: e.path, reason: e.refused }));
  }

  /** The repository's `info/attributes` (git-rev-parse(1) --git-path: wherever this repository keeps it). */
  async infoAttributesFile(): Promise<string> {
    return path.resolve(this.root, (await this.ok(['rev-parse', '--git-path', 'info/attributes'])).trim());
  }

  async staged(): Promise<string[]> {
    const out = await this.ok(['diff', '--cached', '--name-only', '-z', '--no-renames']);
    return out.split('\0').filter(Boolean);
  }

  async commit(message: string): Promise<void> {
    // --no-verify: the person's hooks are for their code, not for a vault of notes.
    await this.ok(['commit', '--no-verify', '-q', '-m', message], { config: await this.identityConfig() });
  }

  async unmerged(): Promise<Unmerged[]> {
    const out = await this.ok(['ls-files', '-u', '-z']);
    const byPath = new Map<string, Unmerged>();
    for (const rec of out.split('\0').filter(Boolean)) {
      // `<mode> <sha> <stage>\t<path>` (git-ls-files(1), --stage output).
      const tab = rec.indexOf('\t');
      const [, sha, stage] = rec.slice(0, tab).split(' ');
      const p = rec.slice(tab + 1);
      const u = byPath.get(p) ?? { path: p, stages: {} };
      u.stages[Number(stage) as 1 | 2 | 3] = sha;
      byPath.set(p, u);
    }
    return [...byPath.values()];
  }

  /** A blob's bytes, exactly (notes may hold lines that are not UTF-8). */
  blob(sha: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      execFile('git', ['cat-file', 'blob', sha], { cwd: this.root, env: gitEnv(), encoding: 'buffer', maxBuffer: 1 << 30 }, (err, out) => (err ? reject(err) : resolve(out)));
    });
  }

  /** Every path in the index (any stage) and on disk, to find a free name. */
  async taken(p: string): Promise<boolean> {
    if (fs.existsSync(path.join(this.root, p))) return true;
    return (await this.ok(['ls-files', '-z', '--', p])).length > 0;
  }
}

/** The vault's repository, or what is wrong with it. Starts git only in `root`. */
export async function openVaultRepo(root: string): Promise<VaultRepo | RepoProblem> {
  if (!fs.existsSync(root)) return { kind: 'notRepo' };
  const r = await runGit(root, ['rev-parse', '--show-toplevel']);
  if (r.code !== 0) return { kind: 'notRepo' };
  const top = r.out.trim();
  if (fs.realpathSync(top) !== fs.realpathSync(root)) return { kind: 'insideOther', top };
  return new VaultRepo(root);
}

/** Git's first meaningful line, for a message (`fatal: ` and hints dropped). */
export function gitSays(r: { err: string; out: string } | string): string {
  const text = typeof r === 'string' ? r : r.err || r.out;
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('hint:') && !/^To |^From /.test(l));
  return (line ?? 'no output').replace(/^(fatal|error): /, '').slice(0, 300);
}

/** A push the remote refused because it moved on (someone pushed in between): fetch, merge, push again. */
export function isRejectedPush(r: GitResult): boolean {
  return /\[rejected\]|\[remote rejected\].*(fetch first|non-fast-forward)|non-fast-forward|fetch first|stale info|cannot lock ref/i.test(r.err);
}
