// One agent's world for an end-to-end test: a fresh HOME, a fresh vault and a
// small git project, the built Baton CLI (a private copy, so another rebuild
// of dist/ cannot change it mid-test) and the pinned agent CLIs. Processes
// get a minimal environment, as an agent's hooks would: HOME, a PATH of
// Node, the agents and the system, and only what a test adds.
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as chaos from '../../chaos/support';
import { hookLogOf } from '../../../src/adapters/vaultLayout';
import { agentsBinDir, ensureAgents } from './install';

export interface World {
  root: string;
  home: string;
  vault: string;
  /** A git repository with one commit: package.json and src/cart.js. */
  project: string;
  /** The project name Baton gives `project` (its folder name). */
  projectName: string;
  /** The built CLI this world runs, `dist/cli.js` copied. */
  cli: string;
  /** The environment every process of this world starts from. */
  env: NodeJS.ProcessEnv;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A new world; `name` becomes the project's folder name and the temp folder's prefix. */
export function makeWorld(name: string): World {
  ensureAgents();
  chaos.ensureBuilt();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `baton-agents-${name}-`));
  const home = path.join(root, 'home');
  const vault = path.join(root, 'vault');
  const project = path.join(root, name);
  for (const dir of [home, vault, path.join(project, 'src')]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name, version: '1.0.0', scripts: { test: 'node src/cart.js' } }, null, 2) + '\n');
  fs.writeFileSync(path.join(project, 'src', 'cart.js'), 'function total(items) {\n  return items.reduce((sum, i) => sum + i.price, 0);\n}\nmodule.exports = { total };\n');
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    USER: os.userInfo().username,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    PATH: [path.dirname(process.execPath), agentsBinDir(), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    TMPDIR: os.tmpdir(),
    BATON_VAULT: vault,
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: project, env, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test Person');
  git('config', 'user.email', 'person@example.test');
  git('add', '.');
  git('commit', '-q', '-m', 'the cart');
  return { root, home, vault, project, projectName: name, cli: chaos.CLI, env };
}

export interface RunOpts {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  /** A hung agent must fail its test, not the CI job: killed after this long (default 240 s). */
  timeoutMs?: number;
}

/** Runs a program of the world to its exit, with the world's environment plus `opts.env`. */
export function run(world: World, cmd: string, args: string[], opts: RunOpts = {}): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? world.project, env: { ...world.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[killed: still running after ${opts.timeoutMs ?? 240_000} ms]`;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 240_000);
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** `baton ARGS` as the person runs it in this world (the built CLI, the world's HOME and vault). */
export async function baton(world: World, args: string[], opts: RunOpts = {}): Promise<Exit> {
  return run(world, process.execPath, [world.cli, ...args], opts);
}

/** `baton ARGS --json`, parsed; fails with the output when it did not exit 0. */
export async function batonJson<T>(world: World, args: string[], opts: RunOpts = {}): Promise<T> {
  const r = await baton(world, [...args, '--json'], opts);
  if (r.code !== 0) throw new Error(`baton ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** Every file under the vault (relative paths), Baton's cache and locks left out. */
export function vaultFiles(world: World): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (rel === '' && (e.name === '.baton' || e.name === '.baton-live')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else out.push(r);
    }
  };
  walk(world.vault, '');
  return out.sort();
}

/** The concatenated text of every vault file, for "nothing of this machine leaked" checks. */
export const vaultText = (world: World): string =>
  vaultFiles(world)
    .map((f) => fs.readFileSync(path.join(world.vault, f), 'utf8'))
    .join('\n');

export function removeWorld(world: World): void {
  if (process.env.BATON_AGENTS_KEEP) return void process.stderr.write(`kept ${world.root}\n`);
  fs.rmSync(world.root, { recursive: true, force: true });
}

/** Baton's hook log in this world's vault (why a hook wrote nothing, or failed), for failure messages. */
export function hookLog(world: World): string {
  try {
    return fs.readFileSync(hookLogOf(world.vault), 'utf8');
  } catch {
    return '(no hook log)';
  }
}
