// The project (and worktree) a folder belongs to, by the contract's "Project
// name of a folder". Synchronous and file-system only: it runs on every CLI
// call and in agent hooks, where starting a git process each time is too slow.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const MARKERS = ['.baton-project', '.logos-project'];

// A marker names a project in its first line; reading more would only let a
// huge file slow every hook down.
const MARKER_READ_LIMIT = 4096;

export interface ProjectOfFolder {
  /** Raw name: the caller applies `safe`. */
  project: string;
  /** Raw name of the linked worktree, "" in the main one or outside git. */
  worktree: string;
}

/**
 * Names the project of `dir`, raw (the caller applies `safe`):
 * 1. the nearest `.baton-project` (else `.logos-project`) at or above `dir`,
 *    its first line that is neither blank nor a `#` comment;
 * 2. else the folder name of the repository's main worktree, so every linked
 *    worktree of one repository is one project with its own worktree name;
 * 3. else the folder's own name.
 * Names are given in Unicode NFC. Refuses (null) the home folder and `/`, which would otherwise gather every
 * stray session of a machine into one project. A repository whose main
 * worktree is home or `/` (a dotfiles repository) names nothing either, for
 * the same reason: its folders fall back to their own names. Never throws and
 * never starts a process; an unreadable marker or a broken `.git` file is
 * skipped, not fatal.
 */
export function projectNameOf(dir: string, home: string = os.homedir()): ProjectOfFolder | null {
  const start = path.resolve(dir);
  if (isHomeOrRoot(start, home)) return null;

  const marker = findMarker(start);
  const repo = findRepository(start);
  const repoUsable = repo !== null && !isHomeOrRoot(repo.mainTop, home);
  const worktree = repoUsable ? repo.worktree : '';
  if (marker) return nfc(marker, worktree);
  if (repoUsable) return nfc(repo.project, worktree);
  return nfc(path.basename(start), '');
}

// One spelling per name: macOS gives folder names decomposed (NFD), a person
// types them composed (NFC); both must name one project.
const nfc = (project: string, worktree: string): ProjectOfFolder => ({ project: project.normalize('NFC'), worktree: worktree.normalize('NFC') });

/**
 * The scope of `dir` as a raw `project` or `project/worktree` string, or null
 * where `projectNameOf` refuses (home, `/`). The caller applies `safeScope`.
 */
export function scopeOf(dir: string, home?: string): string | null {
  const found = projectNameOf(dir, home);
  if (!found) return null;
  return found.worktree ? `${found.project}/${found.worktree}` : found.project;
}

function isHomeOrRoot(dir: string, home: string): boolean {
  if (path.dirname(dir) === dir) return true;
  const homeDir = path.resolve(home);
  if (samePath(dir, homeDir)) return true;
  // A symlinked home (/home -> /usr/home) must still count as home.
  return samePath(realpath(dir), realpath(homeDir));
}

function samePath(a: string, b: string): boolean {
  return process.platform === 'win32' || process.platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function* upward(start: string): Generator<string> {
  let dir = start;
  for (;;) {
    yield dir;
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

function findMarker(start: string): string {
  for (const dir of upward(start)) {
    for (const name of MARKERS) {
      const project = readMarker(path.join(dir, name));
      if (project) return project;
    }
  }
  return '';
}

/** The first non-blank, non-comment line; "" for a missing, empty or unreadable marker. */
function readMarker(file: string): string {
  const text = readHead(file, MARKER_READ_LIMIT);
  if (text === null) return '';
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.replace(/^\uFEFF/, '').trim();
    if (trimmed && !trimmed.startsWith('#')) return trimmed;
  }
  return '';
}

/**
 * Up to `limit` bytes of a regular file, else null. Only regular files: a FIFO
 * or a device named like a marker would otherwise block the hook forever.
 */
function readHead(file: string, limit: number): string | null {
  let fd: number | undefined;
  try {
    if (!fs.statSync(file).isFile()) return null;
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(limit);
    const n = fs.readSync(fd, buf, 0, limit, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

interface Repository {
  project: string;
  worktree: string;
  /** The main worktree's folder (for bare repositories, the folder holding them). */
  mainTop: string;
}

/** The nearest `.git` at or above `start`, read the way git itself would find it. */
function findRepository(start: string): Repository | null {
  for (const dir of upward(start)) {
    const dotGit = path.join(dir, '.git');
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dotGit);
    } catch {
      continue;
    }
    if (stat.isDirectory()) return { project: path.basename(dir), worktree: '', mainTop: dir };
    if (stat.isFile()) return fromGitFile(dir, dotGit);
  }
  return null;
}

/**
 * A `.git` FILE (`gitdir: <path>`) is a linked worktree when its git directory
 * has a `commondir`; otherwise (a submodule, a moved or pruned worktree) the
 * folder holding it is its own main worktree.
 */
function fromGitFile(top: string, dotGit: string): Repository {
  const standalone: Repository = { project: path.basename(top), worktree: '', mainTop: top };
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readHead(dotGit, MARKER_READ_LIMIT) ?? '');
  if (!pointer) return standalone;
  const gitDir = path.resolve(top, pointer[1]);
  const common = readHead(path.join(gitDir, 'commondir'), MARKER_READ_LIMIT)?.trim();
  if (!common) return standalone;
  const commonDir = path.resolve(gitDir, common);
  const main = mainOf(commonDir);
  return { project: main.project, worktree: path.basename(top), mainTop: main.top };
}

/**
 * The main worktree of a shared git directory: `/src/kestrel/.git` is
 * `kestrel`. A bare repository has none; it is named as people name it:
 * `kestrel.git` is `kestrel`, and a hidden `/src/kestrel/.bare` (the
 * "bare repository plus worktrees" layout) is its folder, `kestrel`.
 */
function mainOf(commonDir: string): { project: string; top: string } {
  const base = path.basename(commonDir);
  if (base.startsWith('.')) {
    const top = path.dirname(commonDir);
    return { project: path.basename(top), top };
  }
  return { project: base.replace(/\.git$/i, '') || base, top: commonDir };
}

/**
 * The top of the working tree holding `dir` (the folder with the nearest
 * `.git`, a linked worktree's own top included), or null outside git: what
 * hooks make edited paths relative to. File-system only, like the rest here.
 */
export function workTreeTop(dir: string): string | null {
  for (const d of upward(path.resolve(dir))) {
    try {
      fs.statSync(path.join(d, '.git'));
      return d;
    } catch {
      // not here
    }
  }
  return null;
}
