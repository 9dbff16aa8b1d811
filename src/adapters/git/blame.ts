// `git blame` of one file, and the commit graph that says which checkpoint's
// range holds a commit. Read through `git` itself (not simple-git) because a
// document with unsaved edits is blamed from its text on stdin.
//
// Format facts (git-blame(1), "THE PORCELAIN FORMAT" and "--incremental"): each
// group starts `<40-hex sha> <orig line> <final line> <count>`; the first group
// of a commit is followed by its headers (`author-time`, `summary`, …), every
// group ends with a `filename` line. Lines not yet committed carry the all-zero
// sha. GitLens blames with the same `--root --incremental` flags
// (packages/git-cli/src/providers/blame.ts, buildBlameArgs).
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { gitEnv } from './gitState';

export const UNCOMMITTED = '0000000000000000000000000000000000000000';

export interface BlameCommit {
  sha: string;
  /** Unix seconds: when the change was made (kept by a rebase, unlike the committer time). */
  authorTime: number;
  summary: string;
}

export type BlameAnswer =
  | {
      ok: true;
      /** The repository's top level. */
      root: string;
      /** The file relative to `root`, with `/`. */
      file: string;
      /** The sha of each line, index 0 for line 1; UNCOMMITTED for lines not committed. */
      lines: string[];
      commits: Map<string, BlameCommit>;
    }
  | { ok: false; reason: 'not-a-repository' | 'untracked' | 'binary' | 'missing' | 'disabled' | 'failed'; message: string };

const SILENCE_LIMIT_MS = 20_000;
/** git's own test for a binary file (buffer_is_binary, xdiff-interface.c): a NUL in the first 8000 bytes. */
const BINARY_PROBE = 8000;

interface RunOptions {
  input?: string;
  signal?: AbortSignal;
}

/** Runs git in `cwd`; rejects with git's stderr on a non-zero exit, never hangs past the silence limit. */
export function runGit(cwd: string, args: string[], opts: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'], signal: opts.signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill(), SILENCE_LIMIT_MS);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => (clearTimeout(timer), reject(e)));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(Buffer.concat(err).toString('utf8').trim() || `git ${args[0]} exited with ${code}`));
    });
    // A closed stdin (git done early, or killed) is not an error worth a stack.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * Blames `file` (absolute). With `contents`, the lines are those of the text
 * given (a document's unsaved edits, which git then reports as not
 * committed). Never throws: a folder outside any repository, an untracked or
 * binary file, a missing file, and `enabled: false` (an untrusted workspace:
 * no process is started) are answers, each with a sentence for a person.
 */
export async function blameFile(file: string, opts: { contents?: string; enabled?: boolean; signal?: AbortSignal } = {}): Promise<BlameAnswer> {
  if (opts.enabled === false) return { ok: false, reason: 'disabled', message: 'Git is not run in an untrusted workspace.' };
  const dir = path.dirname(file);
  if (!fs.existsSync(dir)) return { ok: false, reason: 'missing', message: `${file} does not exist.` };
  let root: string;
  try {
    root = (await runGit(dir, ['rev-parse', '--show-toplevel'], { signal: opts.signal })).trim();
  } catch (err) {
    if (/not a git repository/i.test(String(err))) return { ok: false, reason: 'not-a-repository', message: `${file} is not in a git repository.` };
    return { ok: false, reason: 'failed', message: `git could not be asked about ${file}: ${firstLine(err)}` };
  }
  const rel = path.relative(fs.realpathSync(root), safeRealpath(file)).split(path.sep).join('/');
  if (!rel || rel.startsWith('../')) return { ok: false, reason: 'not-a-repository', message: `${file} is not inside the repository at ${root}.` };
  if (opts.contents === undefined && !fs.existsSync(file)) return { ok: false, reason: 'missing', message: `${file} does not exist.` };
  if (isBinary(file, opts.contents)) return { ok: false, reason: 'binary', message: `${rel} is a binary file: it has no lines to blame.` };
  const args = ['blame', '--root', '--incremental', '--encoding=utf-8'];
  if (opts.contents !== undefined) args.push('--contents', '-');
  args.push('--', rel);
  let out: string;
  try {
    out = await runGit(root, args, { input: opts.contents, signal: opts.signal });
  } catch (err) {
    const text = String(err);
    if (/no such path|no such ref|bad revision|does not have any commits/i.test(text)) {
      return { ok: false, reason: 'untracked', message: `${rel} is not committed in this repository yet: no line of it has a commit.` };
    }
    return { ok: false, reason: 'failed', message: `git blame failed for ${rel}: ${firstLine(err)}` };
  }
  const { lines, commits } = parseIncremental(out);
  return { ok: true, root, file: rel, lines, commits };
}

/** Parses `git blame --incremental` output into a sha per final line and the commits seen. */
export function parseIncremental(out: string): { lines: string[]; commits: Map<string, BlameCommit> } {
  const lines: string[] = [];
  const commits = new Map<string, BlameCommit>();
  let current: BlameCommit | undefined;
  for (const line of out.split('\n')) {
    const head = /^([0-9a-f]{40}) \d+ (\d+) (\d+)$/.exec(line);
    if (head) {
      const sha = head[1];
      const start = Number(head[2]);
      const count = Number(head[3]);
      for (let i = 0; i < count; i++) lines[start - 1 + i] = sha;
      current = commits.get(sha);
      if (!current) {
        current = { sha, authorTime: 0, summary: '' };
        commits.set(sha, current);
      }
      continue;
    }
    if (!current) continue;
    if (line.startsWith('author-time ')) current.authorTime = Number(line.slice(12)) || 0;
    else if (line.startsWith('summary ')) current.summary = line.slice(8);
  }
  for (let i = 0; i < lines.length; i++) if (lines[i] === undefined) lines[i] = UNCOMMITTED;
  return { lines, commits };
}

/**
 * Commits reachable from HEAD and from `tips` (checkpoints' recorded commits,
 * short or full; ones the repository no longer has are skipped), each with its
 * parents, committed at or after `since` (unix seconds; commits older than
 * every session cannot be any session's, so the walk stops there).
 */
export async function commitGraph(root: string, tips: readonly string[], since: number, signal?: AbortSignal): Promise<Map<string, string[]>> {
  const args = ['rev-list', '--parents', '--ignore-missing', `--max-age=${Math.max(0, Math.floor(since))}`, 'HEAD', ...tips.filter((t) => /^[0-9a-f]{4,40}$/i.test(t))];
  const out = await runGit(root, args, { signal });
  const graph = new Map<string, string[]>();
  for (const line of out.split('\n')) {
    const [sha, ...parents] = line.trim().split(' ');
    if (sha) graph.set(sha, parents);
  }
  return graph;
}

/** What HEAD points at, for cache keys; "" when it cannot be told. */
export async function headSha(root: string, signal?: AbortSignal): Promise<string> {
  try {
    return (await runGit(root, ['rev-parse', '--verify', '-q', 'HEAD'], { signal })).trim();
  } catch {
    return '';
  }
}

function isBinary(file: string, contents: string | undefined): boolean {
  if (contents !== undefined) return contents.slice(0, BINARY_PROBE).includes('\0');
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(BINARY_PROBE);
    const n = fs.readSync(fd, buf, 0, BINARY_PROBE, 0);
    return buf.subarray(0, n).includes(0);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function safeRealpath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.join(fs.realpathSync(path.dirname(file)), path.basename(file));
  }
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0].replace(/^fatal: /, '');

/** At most this many commits are recorded on a checkpoint; a session with more is answered from history. */
export const MAX_RECORDED = 100;

/**
 * The commits of HEAD's history not in `previousCommit`'s and authored at or
 * after `since`: what a session standing on HEAD made, as short shas, newest
 * first. A previous commit this repository does not have (history rewritten,
 * or another repository's) excludes nothing, as agent blame's walk reads it.
 * Undefined when git cannot tell or there are more than MAX_RECORDED.
 */
export async function commitsSince(dir: string, previousCommit: string, since: number): Promise<string[] | undefined> {
  try {
    const args = ['log', '--format=%h %at', `--max-age=${Math.max(0, Math.floor(since))}`, `--max-count=${MAX_RECORDED + 1}`, 'HEAD'];
    if (previousCommit && (await hasCommit(dir, previousCommit))) args.push(`^${previousCommit}`);
    const out = await runGit(dir, [...args, '--']);
    const rows = out.split('\n').filter(Boolean);
    if (rows.length > MAX_RECORDED) return undefined;
    return rows
      .map((r) => r.split(' '))
      .filter(([, at]) => Number(at) >= since)
      .map(([sha]) => sha);
  } catch {
    return undefined;
  }
}

async function hasCommit(dir: string, sha: string): Promise<boolean> {
  if (!/^[0-9a-f]{4,40}$/i.test(sha)) return false;
  return runGit(dir, ['cat-file', '-e', `${sha}^{commit}`]).then(
    () => true,
    () => false,
  );
}
