// What every chaos scenario needs: the real built CLI run as separate
// processes (optionally killed, optionally as another user), and readers of
// the vault that do NOT go through Baton's own parsers, so a bug in those
// parsers cannot hide a bug in the writers.
import { execFileSync, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnCli } from '../support/spawnCli';
import { CLI as SHARED_CLI, ensureBuilt as buildShared } from '../unit/support/cli';

/**
 * The CLI these tests run: the bundles `node esbuild.js` builds into dist/
 * (cli.js, the MCP server it loads, the sql.js WASM), copied once per run
 * into a private folder.
 * Other people rebuild dist/ while this suite runs for minutes; a process
 * that loads a half-written bundle would be a false alarm.
 */
export let CLI = SHARED_CLI;
let privateCopy = '';

export function ensureBuilt(): void {
  if (privateCopy) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-chaos-cli-'));
  const dist = path.dirname(SHARED_CLI);
  for (let attempt = 0; ; attempt++) {
    buildShared();
    const names = fs.readdirSync(dist).filter((n) => !n.endsWith('.map'));
    for (const name of names) fs.copyFileSync(path.join(dist, name), path.join(dir, name));
    try {
      // Whole bundles parse, and stable ones read the same twice.
      for (const name of names.filter((n) => n.endsWith('.js'))) {
        execFileSync(process.execPath, ['--check', path.join(dir, name)], { stdio: 'pipe' });
        if (!fs.readFileSync(path.join(dist, name)).equals(fs.readFileSync(path.join(dir, name)))) throw new Error(`${name} changed while copied`);
      }
      break;
    } catch (err) {
      if (attempt >= 5) throw err;
    }
    execFileSync('sleep', ['2']);
  }
  fs.chmodSync(dir, 0o755);
  privateCopy = path.join(dir, 'cli.js');
  CLI = privateCopy;
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
}

export interface RunOptions {
  vault: string;
  cwd?: string;
  input?: string;
  env?: NodeJS.ProcessEnv;
  /** Run as this user and group (tests run as root, where permission bits stop nothing). */
  uid?: number;
  gid?: number;
  /** SIGKILL the process this many ms after it was spawned. */
  killAfterMs?: number;
  /** SIGKILL the process when this returns true (polled every few ms). */
  killWhen?: () => boolean;
  /** Give up (SIGKILL) after this long and report it; a hung CLI must fail the test, not the CI job. */
  timeoutMs?: number;
  /** Run under this umask (through /bin/sh), to show modes are set, not inherited. */
  umask?: number;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Exited 0 on its own: the write was acknowledged. */
  acked: boolean;
  timedOut: boolean;
  pid: number;
}

/** Runs `node dist/cli.js ARGS` with BATON_VAULT set and nothing else of Baton's inherited. */
export async function run(args: string[], opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  const onSpawn = (child: ChildProcess): void => {
    const kill = (): void => {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    if (opts.killAfterMs !== undefined) timers.push(setTimeout(kill, opts.killAfterMs));
    if (opts.killWhen) {
      const poll = setInterval(() => {
        if (opts.killWhen?.()) kill();
      }, 1);
      timers.push(poll);
    }
    timers.push(
      setTimeout(() => {
        timedOut = true;
        kill();
      }, opts.timeoutMs ?? 60_000),
    );
  };
  try {
    const r = await spawnCli(CLI, args, { ...opts, cwd: opts.cwd ?? os.tmpdir(), onSpawn });
    return { ...r, ms: Date.now() - started, acked: r.code === 0 && r.signal === null, timedOut };
  } finally {
    for (const t of timers) clearTimeout(t);
  }
}

/** Runs tasks with at most `limit` at once (each task usually spawns one CLI process). */
export async function pool<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/** A small seeded PRNG (mulberry32, the benchmark's): a failing chaos run can be replayed with CHAOS_SEED. */
export { rng } from '../../bench/generate';

export function seed(): number {
  const s = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
  return Number.isFinite(s) ? s : 1;
}

export function tempRoot(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Removes a tree even when a test left folders read-only or owned by another user. */
export function removeTree(dir: string): void {
  const open = (d: string): void => {
    try {
      fs.chmodSync(d, 0o700);
      for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) open(path.join(d, e.name));
    } catch {
      // best effort
    }
  };
  open(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

export interface Entry {
  rel: string;
  dir: boolean;
  mode: number;
  size: number;
}

/** Every file and folder under `root` (not following links), paths relative to it. */
export function walk(root: string): Entry[] {
  const out: Entry[] = [];
  const visit = (rel: string): void => {
    const full = path.join(root, rel);
    let names: string[];
    try {
      names = fs.readdirSync(full);
    } catch {
      return;
    }
    for (const name of names) {
      const r = rel ? path.join(rel, name) : name;
      const st = fs.lstatSync(path.join(root, r));
      out.push({ rel: r, dir: st.isDirectory(), mode: st.mode & 0o777, size: st.size });
      if (st.isDirectory()) visit(r);
    }
  };
  visit('');
  return out;
}

// ---- reading the vault without Baton's parsers ---------------------------------

// After the agent, a note's origin (machine=…, agent_session=…; docs/vault-format.md).
export const NOTE_LINE = /^- (.*?)(?: <!-- [a-z_]+=[^>]* -->)? <!-- ts=([0-9]+) agent=(\S*)(?: [a-z_]+=\S*)* -->$/;
export const isCheckpointName = (name: string): boolean => /^[0-9]{8}-.*\.md$/.test(name);

export interface RawNote {
  scope: string;
  text: string;
  ts: number;
  agent: string;
}

export interface RawFold {
  scope: string;
  file: string;
  /** The checkpoint's own agent (from its file name). */
  cpAgent: string;
  /** The note's writer as the line says: the checkpoint's agent for `- text`, X for `- (X) text`. */
  agent: string;
  text: string;
}

export interface RawVault {
  notes: RawNote[];
  /** Lines of `uncommitted.md` files that are neither header nor note. */
  badNoteLines: { scope: string; line: string }[];
  folds: RawFold[];
  checkpointFiles: { scope: string; file: string; text: string }[];
  /** Checkpoint files that are not whole: no frontmatter, no final newline. */
  torn: string[];
}

/** Scopes as folders: `sessions/<p>` and `sessions/<p>/<wt>` (not `plans`). */
export function scopeDirs(vault: string): { scope: string; dir: string }[] {
  const sessions = path.join(vault, 'sessions');
  const out: { scope: string; dir: string }[] = [];
  const dirs = (d: string): string[] => {
    try {
      return fs
        .readdirSync(d, { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map((e) => e.name);
    } catch {
      return [];
    }
  };
  for (const p of dirs(sessions)) {
    out.push({ scope: p, dir: path.join(sessions, p) });
    for (const w of dirs(path.join(sessions, p))) if (w !== 'plans') out.push({ scope: `${p}/${w}`, dir: path.join(sessions, p, w) });
  }
  return out;
}

/** The notes folded into a checkpoint: the bullets after "Recorded during the session:" in its State. */
export function foldedLines(text: string): string[] {
  const body = text.split('\n');
  const state = body.indexOf('## State');
  if (state < 0) return [];
  const out: string[] = [];
  let inRecorded = false;
  for (let i = state + 1; i < body.length; i++) {
    const line = body[i];
    if (line.startsWith('## ')) break;
    if (line === 'Recorded during the session:') {
      inRecorded = true;
      continue;
    }
    if (!inRecorded) continue;
    if (!line.startsWith('- ')) break;
    out.push(line.slice(2));
  }
  return out;
}

export function readRaw(vault: string): RawVault {
  const raw: RawVault = { notes: [], badNoteLines: [], folds: [], checkpointFiles: [], torn: [] };
  for (const { scope, dir } of scopeDirs(vault)) {
    const notesFile = path.join(dir, 'uncommitted.md');
    if (fs.existsSync(notesFile)) {
      const text = fs.readFileSync(notesFile, 'utf8');
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        if (i === lines.length - 1 && line === '') return;
        const m = NOTE_LINE.exec(line);
        if (m) raw.notes.push({ scope, text: m[1], ts: Number(m[2]), agent: m[3] });
        else if (!(i < 4 && (line.startsWith('# uncommitted — ') || line === '' || line.startsWith('Working notes from')))) raw.badNoteLines.push({ scope, line });
      });
    }
    for (const name of fs.readdirSync(dir)) {
      if (!isCheckpointName(name)) continue;
      const file = path.join(dir, name);
      if (!fs.statSync(file).isFile()) continue;
      const text = fs.readFileSync(file, 'utf8');
      raw.checkpointFiles.push({ scope, file, text });
      if (!/^---\n[\s\S]*\n---\n/.test(text) || !text.endsWith('\n')) raw.torn.push(file);
      const cpAgent = /^[0-9]{8}-[0-9]{6}-(.*)\.md$/.exec(name)?.[1] ?? '';
      for (const line of foldedLines(text)) {
        const m = /^\(([^)]*)\) (.*)$/.exec(line);
        raw.folds.push(m ? { scope, file, cpAgent, agent: m[1], text: m[2] } : { scope, file, cpAgent, agent: cpAgent, text: line });
      }
    }
  }
  return raw;
}

/** How many times each text is recorded anywhere (open note or folded), and where. */
export function occurrences(raw: RawVault): Map<string, { scope: string; agent: string; where: string }[]> {
  const m = new Map<string, { scope: string; agent: string; where: string }[]>();
  const add = (text: string, v: { scope: string; agent: string; where: string }): void => {
    const list = m.get(text) ?? [];
    list.push(v);
    m.set(text, list);
  };
  for (const n of raw.notes) add(n.text, { scope: n.scope, agent: n.agent, where: `sessions/${n.scope}/uncommitted.md` });
  for (const f of raw.folds) add(f.text, { scope: f.scope, agent: f.agent, where: f.file });
  return m;
}

export function parseJson<T>(r: RunResult, what: string): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`${what}: stdout is not JSON (exit ${r.code}): ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 300)}`);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Prints a line in the mocha output (timings and seeds are part of the evidence). */
export function log(line: string): void {
  process.stdout.write(`      ${line}\n`);
}
