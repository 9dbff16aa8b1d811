// The vault on disk: markdown files a person owns. Whole-file writes are
// atomic, names are claimed exclusively, and readers skip whatever they cannot
// parse, so one bad file never hides the good ones beside it.
import * as fs from 'fs';
import * as path from 'path';
import { BatonError, VaultWriteError } from '../../core/errors';
import type { Checkpoint, Plan } from '../../core/model';
import { safeName } from '../../core/names';
import type { NoteLine, PlanInput, VaultPort } from '../../core/ports';
import { stamp } from '../../core/time';
// Loaded on first use: the checkpoint format brings the YAML parser (js-yaml,
// most of what an edit hook would otherwise compile), and a working note, an
// edit hook's whole write, never reads or writes a checkpoint. A require, as in
// app/openBaton.ts; esbuild splits it into dist/checkpointFile.js for the CLI and the hooks.
import type * as CheckpointFileModule from '../markdown/checkpointFile';
import { notesHeader, renderNoteLine } from '../markdown/notesFile';
import { asWriteError, createExclusive, cutBytes, ensureDir, NAME_MAX } from './atomicFile';
import { readCheckpointText, readWithNotice } from './checkpointText';
import * as fsCalls from './fsCalls';
import { readNoteLines, readRecentNotes, rewriteNotesWithout } from './notesLines';
import { VaultLocks } from './scopeLock';
import { DATA_DIR, LIVE_DIR, NOTES_FILE, PLANS_DIR, SESSIONS_DIR, checkpointSlug, locksDirOf, pendingDirOf } from '../vaultLayout';

let checkpointFile: typeof CheckpointFileModule | undefined;
const md = (): typeof CheckpointFileModule =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (checkpointFile ??= require('../markdown/checkpointFile') as typeof CheckpointFileModule);

/** How much of a notes file's end `recentNotes` reads: a few dozen notes, a constant cost. */
const RECENT_BYTES = 8192;

export { LIVE_DIR, NOTES_FILE, PLANS_DIR };
const MAX_STEPS = 60;

const isPlanFileName = (name: string): boolean => name.startsWith('plan-') && name.endsWith('.md');

/**
 * `<prefix><agent>.md`, the agent cut so the whole name fits in NAME_MAX bytes.
 * `safe` allows an agent of 255 bytes, and the stamp before it would make such
 * a name one the file system refuses (ENAMETOOLONG): the checkpoint would be
 * lost for the length of a name. The frontmatter keeps the whole agent name.
 */
function fileId(prefix: string, agent: string): string {
  const room = NAME_MAX - Buffer.byteLength(prefix) - '.md'.length;
  return `${prefix}${cutBytes(agent, room).replace(/-+$/, '')}`;
}

export class FsVault implements VaultPort {
  readonly sessionsDir: string;
  /** The cache (index, logs, hook bindings): may be deleted at any time. */
  readonly dataDir: string;
  /** Locks and pending notes (see LIVE_DIR). */
  readonly liveDir: string;
  /** Where notes the vault refused wait for `baton index`; the first is written, all are read (older Batons kept them in the cache). */
  readonly pendingDirs: string[];
  /** The scope locks (in LIVE_DIR): `baton doctor` looks there for locks a dead writer left. */
  readonly locksDir: string;
  private readonly locks: VaultLocks;

  constructor(readonly root: string) {
    this.sessionsDir = path.join(root, SESSIONS_DIR);
    this.dataDir = path.join(root, DATA_DIR);
    this.liveDir = path.join(root, LIVE_DIR);
    this.pendingDirs = [pendingDirOf(root), path.join(this.dataDir, 'pending')];
    this.locksDir = locksDirOf(root);
    this.locks = new VaultLocks(this.locksDir, [path.join(root, '.git', 'index.lock')]);
  }

  scopeDir(scope: string): string {
    const dir = path.join(this.sessionsDir, ...scope.split('/'));
    // safeScope already makes escape impossible; this guards the guard.
    if (!dir.startsWith(this.sessionsDir + path.sep)) throw new BatonError('refused', `Scope "${scope}" would leave the vault.`);
    return dir;
  }

  pathOf(slug: string): string {
    const full = path.resolve(this.root, `${slug}.md`);
    if (!full.startsWith(this.sessionsDir + path.sep)) throw new BatonError('refused', `"${slug}" is not inside the vault.`);
    return full;
  }

  /**
   * The scope's folder for a write, refused when `sessions/`, a folder of the
   * scope or one of `names` in it is there but is no plain folder or file: a
   * symbolic link (made by hand, or one an older Baton let arrive by sync)
   * would take the write out of the vault, a fold's rewrite would carry a
   * file from outside into the vault and so to every clone. One `lstat` a
   * level; what is not there yet is made as a plain folder or file.
   */
  private plainScopeDir(scope: string, names: string[] = [NOTES_FILE]): string {
    const dir = this.scopeDir(scope);
    const parts = path.relative(this.sessionsDir, dir).split(path.sep);
    const chain = [this.sessionsDir, ...parts.map((_, i) => path.join(this.sessionsDir, ...parts.slice(0, i + 1)))];
    for (const d of chain) notPlain(d, true);
    for (const name of names) notPlain(path.join(dir, name), name === PLANS_DIR);
    return dir;
  }

  async scopes(): Promise<string[]> {
    const scopes: string[] = [];
    for (const project of await listDirs(this.sessionsDir)) {
      scopes.push(project);
      for (const wt of await listDirs(path.join(this.sessionsDir, project))) {
        if (wt !== PLANS_DIR) scopes.push(`${project}/${wt}`);
      }
    }
    return scopes.sort();
  }

  async checkpoints(scope: string): Promise<Checkpoint[]> {
    const dir = this.scopeDir(scope);
    const names = (await listFiles(dir)).filter(md().isCheckpointFileName);
    const parsed = await Promise.all(
      names.map(async (name) => {
        const text = await readCheckpointText(path.join(dir, name));
        return text === null ? null : md().parseCheckpoint(text, name.slice(0, -3), scope);
      }),
    );
    return parsed.filter((c): c is Checkpoint => c !== null);
  }

  async createCheckpoint(scope: string, cp: Checkpoint, stampTs: number): Promise<{ id: string; path: string; slug: string }> {
    // The notes file too: a commit folds it next, and a fold rewrites it.
    const dir = this.plainScopeDir(scope);
    await ensureDir(dir);
    const agent = safeName(cp.agent, 'agent');
    for (let step = 0; step <= MAX_STEPS; step++) {
      const id = fileId(`${stamp(stampTs + step)}-`, agent);
      const file = path.join(dir, `${id}.md`);
      const slug = checkpointSlug(scope, id);
      const content = md().renderCheckpoint({ ...cp, session: id, project: scope, slug });
      if (await createExclusive(file, content)) return { id, path: file, slug };
    }
    throw new BatonError('failed', `Could not find a free checkpoint name in ${scope} within ${MAX_STEPS} seconds of ${stamp(stampTs)}; retry in a minute.`);
  }

  /** Every note, however big the file; [] when there is none; throws when it cannot be read (never "no notes"). */
  async notes(scope: string): Promise<NoteLine[]> {
    return readNoteLines(path.join(this.scopeDir(scope), NOTES_FILE));
  }

  async recentNotes(scope: string): Promise<NoteLine[]> {
    return readRecentNotes(path.join(this.scopeDir(scope), NOTES_FILE), RECENT_BYTES);
  }

  appendNote(scope: string, note: NoteLine): Promise<void> {
    return this.appendNotes(scope, [note]);
  }

  /**
   * Every line in one O_APPEND write, all of them or none (a short write is
   * cut back): an edit hook naming 100,000 files costs one open and one
   * write, not 100,000 of each. Each line is whole, as `appendNote`'s is.
   */
  async appendNotes(scope: string, notes: readonly NoteLine[]): Promise<void> {
    if (notes.length === 0) return;
    const dir = this.plainScopeDir(scope);
    const file = path.join(dir, NOTES_FILE);
    const lines = notes.map(renderNoteLine).join('');
    if (await appendExisting(file, lines)) return;
    // First note of the scope: header and lines arrive in one exclusive create.
    await ensureDir(dir);
    if (!(await createExclusive(file, notesHeader(scope.split('/')[0]) + lines)) && !(await appendExisting(file, lines))) {
      throw new BatonError('failed', `${file} vanished while a note was being added; retry.`);
    }
  }

  async removeNotes(scope: string, folded: NoteLine[]): Promise<void> {
    await rewriteNotesWithout(path.join(this.plainScopeDir(scope), NOTES_FILE), folded);
  }

  async removeCheckpoint(scope: string, id: string): Promise<void> {
    const file = path.join(this.plainScopeDir(scope, []), `${id}.md`);
    await fs.promises.rm(file, { force: true }).catch((err) => {
      throw asWriteError(err, file);
    });
  }

  /** Under the scope lock only so that a running sync is honoured: plans are claimed exclusively anyway. */
  createPlan(scope: string, plan: PlanInput): Promise<Plan> {
    return this.withScopeLock(scope, () => this.claimPlan(scope, plan));
  }

  private async claimPlan(scope: string, plan: PlanInput): Promise<Plan> {
    const dir = path.join(this.plainScopeDir(scope, [PLANS_DIR]), PLANS_DIR);
    await ensureDir(dir);
    const agent = safeName(plan.agent, 'agent');
    const content = md().renderPlan({ ...plan, agent });
    for (let step = 0; step <= MAX_STEPS; step++) {
      const id = fileId(`plan-${stamp(plan.ts + step)}-`, agent);
      if (await createExclusive(path.join(dir, `${id}.md`), content)) return md().parsePlan(content, id, scope);
    }
    throw new BatonError('failed', `Could not find a free plan name in ${scope}; retry in a minute.`);
  }

  async plans(scope: string): Promise<Plan[]> {
    const dir = path.join(this.scopeDir(scope), PLANS_DIR);
    const names = (await listFiles(dir)).filter(isPlanFileName);
    const plans = await Promise.all(
      names.map(async (name) => {
        const text = await readWithNotice(path.join(dir, name));
        return text === null ? null : md().parsePlan(text, name.slice(0, -3), scope);
      }),
    );
    return plans.filter((p): p is Plan => p !== null);
  }

  /** Every writer of the vault's files comes through here, so each one also honours a running sync (VaultLocks.with). */
  withScopeLock<T>(scope: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.with(`scope:${scope}`, fn, true);
  }

  /** Runs `fn` with no writer writing the vault's files (see VaultLocks.exclusive): for a sync. */
  withVaultExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.locks.exclusive(fn);
  }

  withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.with(key, fn);
  }

  tryLock<T>(key: string, fn: () => Promise<T>): Promise<T | null> {
    return this.locks.tryWith(key, fn);
  }
}

/**
 * One O_APPEND write of `lines` (whole lines, each ending in a newline) to a
 * file that must already exist (no O_CREAT, so a new file always gets its
 * header). False when the file is not there.
 *
 * When the file does not end in a newline (a line torn by a power cut or a
 * full disk, or an editor that saved without one), the notes start on a line
 * of their own: glued to the torn line the first would not parse, and an
 * acknowledged note would be lost. Checking costs one stat and a one-byte
 * read, whatever the file's size. Callers hold the scope lock, so no other
 * append can land between the check and the write.
 */
async function appendExisting(file: string, lines: string): Promise<boolean> {
  // A file descriptor, not a FileHandle: see fsCalls.ts.
  let fd: number;
  try {
    // O_NOFOLLOW: a link put in the notes file's place after the check above is refused too (ELOOP), never followed.
    fd = await fsCalls.open(file, fs.constants.O_RDWR | fs.constants.O_APPEND | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw asWriteError(err, file);
  }
  try {
    const { size } = await fsCalls.fstat(fd);
    let lead = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await fsCalls.read(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) lead = '\n';
    }
    const bytes = Buffer.from(lead + lines, 'utf8');
    // One write(2) in practice; the rest of a partial one (Linux caps a
    // write near 2 GiB, a signal can cut one short) goes in the next.
    let written = 0;
    try {
      while (written < bytes.length) {
        const { bytesWritten } = await fsCalls.write(fd, bytes, written, bytes.length - written);
        if (bytesWritten <= 0) break;
        written += bytesWritten;
      }
    } catch (err) {
      await cutBack(fd, size);
      throw err;
    }
    if (written !== bytes.length) {
      // The disk filled up part way through. The part that landed is cut
      // off again, so no torn line is left to be read as a note or to
      // swallow the next one, and no note of it is acknowledged.
      await cutBack(fd, size);
      throw Object.assign(new Error(`short write: ${written} of ${bytes.length} bytes`), { code: 'ENOSPC' });
    }
  } catch (err) {
    throw asWriteError(err, file);
  } finally {
    await fsCalls.close(fd);
  }
  return true;
}

/**
 * Cuts a notes file back to the size it had before a failed append. Under the
 * scope lock no other append can have landed since. If even that fails, the
 * torn tail has no newline, and the next append starts a line of its own.
 */
async function cutBack(fd: number, size: number): Promise<void> {
  try {
    if ((await fsCalls.fstat(fd)).size > size) await fsCalls.ftruncate(fd, size);
  } catch {
    // best effort: see above
  }
}

/** Throws (as a refused write: a note is then kept pending) when `p` is there and is not a plain folder (`dir`) or file. */
function notPlain(p: string, dir: boolean): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch {
    return; // not there (made plain when needed), or unreadable: the write itself says so
  }
  if (dir ? st.isDirectory() : st.isFile()) return;
  const what = st.isSymbolicLink() ? 'a symbolic link' : `not a plain ${dir ? 'folder' : 'file'}`;
  throw new VaultWriteError(
    `The vault refused a write to ${p}: it is ${what}, and Baton writes only plain files and folders in the vault, never through a link (it could lead out of the vault). ` +
      `Replace it with a plain ${dir ? 'folder' : 'file'} (or remove it), then run: baton index`,
    'ENOTPLAIN',
  );
}

async function listDirs(dir: string): Promise<string[]> {
  try {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    return [];
  }
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}
