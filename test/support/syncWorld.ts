// A vault shared through git, for tests: a bare remote and clones of it in a
// temporary folder, each a vault, and a git that ignores the developer's own
// config and has no identity (so every sync shows it needs none). Shared by
// the unit and chaos tiers, so it imports no more than Node.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The environment every process of a sync test runs with: no global or system git config, no identity, a private HOME. */
export function syncEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig') };
  for (const k of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'EMAIL', 'GIT_DIR', 'GIT_WORK_TREE']) delete env[k];
  return env;
}

export function gitIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Every file of a vault's working tree but git's own, the cache and the locks: path -> bytes. */
export function treeOf(vault: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(vault, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && (e.name === '.git' || e.name === '.baton' || e.name === '.baton-live')) continue;
      // A temporary file of a write SIGKILLed midway (`.uncommitted.md.<pid>-<hex>.tmp`): never part of the
      // vault, ignored by its .gitignore (`.*.tmp`), so not part of the tree two clones must share.
      if (/^\..*\.tmp$/.test(e.name)) continue;
      if (e.isDirectory()) walk(r);
      else out.set(r, fs.readFileSync(path.join(vault, r), 'latin1'));
    }
  };
  walk('');
  return out;
}

/** Notes as they lie in every uncommitted.md and every checkpoint's State, read without Baton's parsers. */
export function notesIn(vault: string): { open: string[]; folded: string[] } {
  const open: string[] = [];
  const folded: string[] = [];
  for (const [rel, text] of treeOf(vault)) {
    if (!rel.startsWith('sessions/')) continue;
    const lines = Buffer.from(text, 'latin1').toString('utf8').split('\n');
    if (rel.endsWith('/uncommitted.md')) {
      for (const l of lines) {
        // After the agent, a note's origin (machine=…, agent_session=…).
        const m = /^- (.*?)(?: <!-- [a-z_]+=[^>]* -->)? <!-- ts=\d+ agent=\S+(?: [a-z_]+=\S*)* -->$/.exec(l);
        if (m) open.push(m[1]);
      }
    } else if (/\/\d{8}-[^/]*\.md$/.test(rel)) {
      for (const l of lines) {
        const m = /^- (?:\([^)]*\) )?(.*)$/.exec(l);
        if (m) folded.push(m[1]);
      }
    }
  }
  return { open, folded };
}

export interface SyncWorld {
  root: string;
  remote: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** The clones' vault folders, a first made by `sync --init`, the others by `sync --clone`. */
  clones: string[];
  cleanup(): void;
}

/**
 * A bare remote and `n` vaults sharing it, set up with the built CLI's own
 * `sync --init --remote` and `sync --clone` (so the setup is tested too).
 * `cli(args, vault, env)` runs the CLI and returns its exit code and output.
 */
export async function syncWorld(
  n: number,
  cli: (args: string[], vault: string, env: NodeJS.ProcessEnv) => Promise<{ code: number | null; stdout: string; stderr: string }>,
): Promise<SyncWorld> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-sync-'));
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const env = syncEnv(home);
  const remote = path.join(root, 'remote.git');
  gitIn(root, env, 'init', '-q', '--bare', remote);
  const clones = Array.from({ length: n }, (_, i) => path.join(root, `clone${i}`));
  const first = await cli(['sync', '--init', '--remote', remote], clones[0], env);
  if (first.code !== 0) throw new Error(`sync --init failed: ${first.stderr}`);
  for (const c of clones.slice(1)) {
    const r = await cli(['sync', '--clone', remote], c, env);
    if (r.code !== 0) throw new Error(`sync --clone failed: ${r.stderr}`);
  }
  return { root, remote, home, env, clones, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}
