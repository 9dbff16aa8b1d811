// The git command line, for what needs its exit code and both streams: a
// sync's merge exits 1 on conflicts and that is an answer, not an error
// (simple-git turns it into an exception whose text is all there is to read).
// Same environment as every other git Baton runs (gitState.gitEnv), so the
// person's own config files are honoured and no redirecting variable points
// git at another repository.
import { execFile } from 'child_process';
import { BatonError } from '../../core/errors';
import { gitEnv } from './gitEnv';

export interface GitResult {
  code: number;
  out: string;
  err: string;
}

export interface GitRunOptions {
  /** Kill git after this long; a network operation gets more. */
  timeoutMs?: number;
  /** `-c key=value` pairs for this one command, never written to any config file. */
  config?: Record<string, string>;
  /** Written to git's standard input (for `--stdin` and `-z` lists of any length). */
  input?: string;
  /** Variables added to git's environment for this one command (a temporary index: GIT_INDEX_FILE). */
  env?: Record<string, string>;
}

const LOCAL_MS = 60_000;

export function runGit(dir: string, args: string[], opts: GitRunOptions = {}): Promise<GitResult> {
  const env = { ...gitEnv(), ...opts.env };
  // A sync in the background must fail with a message, not wait for a
  // password nobody will type (git(1): GIT_TERMINAL_PROMPT=0).
  env.GIT_TERMINAL_PROMPT = '0';
  const config = Object.entries(opts.config ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  return new Promise((resolve) => {
    const child = execFile('git', [...config, ...args], { cwd: dir, env, timeout: opts.timeoutMs ?? LOCAL_MS, maxBuffer: 256 << 20, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : error.killed ? 124 : 127) : 0;
      const err = error && typeof error.code !== 'number' ? `${stderr}${error.message}` : stderr;
      resolve({ code, out: stdout, err });
    });
    // A git that exits before reading all of it closes the pipe: its exit code says what happened, not EPIPE.
    child.stdin?.on('error', () => undefined);
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** Throws a BatonError with git's own words when it did not exit 0. */
export async function gitOk(dir: string, args: string[], opts: GitRunOptions = {}): Promise<string> {
  const r = await runGit(dir, args, opts);
  if (r.code !== 0) {
    const said = (r.err || r.out)
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('hint:'))
      .join(' ')
      .slice(0, 500);
    throw new BatonError('failed', `git ${args[0]} in ${dir} failed (exit ${r.code}): ${said}. Nothing of the vault was lost; fix what git says, then retry.`);
  }
  return r.out;
}
