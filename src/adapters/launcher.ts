// The stable launcher, `~/.baton/bin/baton` (and `baton.cmd` on Windows),
// that every user-scope config calls by absolute path. The extension's install
// folder changes with every version, and an agent's shell may have no `node`
// or no `baton` on PATH: the launcher names a runtime that is really there
// and the CLI script to run, and is rewritten only when either moves, so an
// agent reading its config mid-update finds a whole file, old or new.
//
// With VS Code's own runtime (its Electron binary), ELECTRON_RUN_AS_NODE=1
// makes it behave as plain Node (Electron's documented switch:
// electronjs.org/docs/latest/api/environment-variables#electron_run_as_node).
import * as fs from 'fs';
import * as path from 'path';
import { writeAtomic } from './agents/configWriter';
import { batonHomeOf } from './homeLayout';

export interface LauncherTarget {
  /** The program that runs the script: a Node binary, or VS Code's Electron (`process.execPath`). */
  runtime: string;
  /** The CLI's bundled script, `dist/cli.js`. */
  script: string;
  /** Set ELECTRON_RUN_AS_NODE=1 (the runtime is Electron). */
  electron: boolean;
}

export interface LauncherWrite {
  /** The launcher configs should call on this platform. */
  path: string;
  /** Whether any launcher file was written (false when it already pointed there). */
  changed: boolean;
}

export interface LauncherInfo extends LauncherTarget {
  path: string;
  runtimeExists: boolean;
  scriptExists: boolean;
}

export const launcherDir = (home: string): string => path.join(batonHomeOf(home), 'bin');

export function launcherPath(home: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(launcherDir(home), platform === 'win32' ? 'baton.cmd' : 'baton');
}

/** A double-quoted word for /bin/sh: inside double quotes only `"`, `\`, `$` and `` ` `` are special. */
const shQuote = (s: string): string => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;

/** `%` is the one character cmd.exe expands inside quotes in a batch file; a `"` cannot be in a Windows path. */
const cmdQuote = (s: string): string => `"${s.replace(/%/g, '%%')}"`;

// The target is kept on its own lines as JSON, so reading it back never has to
// undo shell quoting; the exec line is what actually runs.
const MARK = 'baton-launcher';

export function renderPosix(t: LauncherTarget): string {
  return [
    '#!/bin/sh',
    `# ${MARK}: written by Baton, which rewrites it when the runtime or the CLI moves. Configs call this file by path.`,
    `# runtime: ${JSON.stringify(t.runtime)}`,
    `# script: ${JSON.stringify(t.script)}`,
    `# electron: ${t.electron}`,
    ...(t.electron ? ['ELECTRON_RUN_AS_NODE=1', 'export ELECTRON_RUN_AS_NODE'] : []),
    `exec ${shQuote(t.runtime)} ${shQuote(t.script)} "$@"`,
    '',
  ].join('\n');
}

export function renderCmd(t: LauncherTarget): string {
  return [
    '@echo off',
    `rem ${MARK}: written by Baton, which rewrites it when the runtime or the CLI moves. Configs call this file by path.`,
    `rem runtime: ${JSON.stringify(t.runtime)}`,
    `rem script: ${JSON.stringify(t.script)}`,
    `rem electron: ${t.electron}`,
    'setlocal',
    ...(t.electron ? ['set "ELECTRON_RUN_AS_NODE=1"'] : []),
    `${cmdQuote(t.runtime)} ${cmdQuote(t.script)} %*`,
    'exit /b %ERRORLEVEL%',
    '',
  ].join('\r\n');
}

/** Writes one file unless it already holds exactly `text` and is executable; returns whether it wrote. */
function ensureFile(file: string, text: string): boolean {
  let current: string | null = null;
  let mode = 0;
  try {
    current = fs.readFileSync(file, 'utf8');
    mode = fs.statSync(file).mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (current === text && mode === 0o755) return false;
  writeAtomic(file, text, 0o755);
  return true;
}

/**
 * Points the launcher at `target`: the POSIX script always (Git Bash and WSL
 * read it on Windows too), `baton.cmd` on Windows. Written atomically, 0755,
 * and not at all when it already says the same, so activating the extension
 * in ten windows rewrites nothing.
 */
export function writeLauncher(home: string, target: LauncherTarget, platform: NodeJS.Platform = process.platform): LauncherWrite {
  const dir = launcherDir(home);
  let changed = ensureFile(path.join(dir, 'baton'), renderPosix(target));
  if (platform === 'win32') changed = ensureFile(path.join(dir, 'baton.cmd'), renderCmd(target)) || changed;
  return { path: launcherPath(home, platform), changed };
}

function field(text: string, name: string): string | null {
  const m = new RegExp(`^(?:#|rem) ${name}: (.*)$`, 'm').exec(text);
  return m ? m[1].trim() : null;
}

/**
 * What the launcher points at, for `baton doctor`: its runtime and script and
 * whether each is still there (an uninstalled VS Code, a deleted clone).
 * Null when there is no launcher, or it is not one Baton wrote.
 */
export function readLauncher(home: string, platform: NodeJS.Platform = process.platform): LauncherInfo | null {
  const file = launcherPath(home, platform);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  if (!text.includes(MARK)) return null;
  const runtime = field(text, 'runtime');
  const script = field(text, 'script');
  if (runtime === null || script === null) return null;
  let target: LauncherTarget;
  try {
    target = { runtime: JSON.parse(runtime) as string, script: JSON.parse(script) as string, electron: field(text, 'electron') === 'true' };
  } catch {
    return null;
  }
  return { ...target, path: file, runtimeExists: fs.existsSync(target.runtime), scriptExists: fs.existsSync(target.script) };
}

/** The runtime this process would put in the launcher: itself, flagged as Electron when it is one (VS Code). */
export function currentRuntime(): { runtime: string; electron: boolean } {
  return { runtime: process.execPath, electron: typeof process.versions.electron === 'string' };
}
