// Cross-process locks for the vault. Every writer of a scope's notes or
// checkpoints holds its scope's lock, so an append can never land in a file
// that a concurrent fold is about to replace.
//
// A lock is a small file, `<sha>.lock`, created whole and exclusively (a hard
// link of a finished temporary file), that names its holder: host, pid, pid
// namespace, boot, the process's start time and a random token. Agents' hooks
// get killed (timeouts, Ctrl-C, a closed terminal), so a holder that died must
// not block the vault; a holder that is only paused (Ctrl-Z, a debugger, a
// laptop asleep) cannot refresh its lock, and must not lose it:
//   - a holder on this machine (same host, pid namespace and boot) is judged
//     by its process alone, never by the lock's age: dead at once when the
//     pid no longer exists, is a zombie, or is now another process (its start
//     time differs: the pid was reused); alive, however long it is stopped;
//   - a holder on another host (a vault on a network share), or of unknown
//     shape, is dead when the lock's mtime, which a live holder refreshes
//     every few seconds, is older than STALE_MS.
// A dead lock is broken under a second, short-lived lock (`<sha>.lock.break`),
// after checking that the file is still the very one judged dead (its token),
// so two processes that both saw it dead can never remove a third's fresh lock.
import * as fs from 'fs';
import * as path from 'path';
import { BatonError } from '../../core/errors';
import { sha256Hex } from '../../core/sha256';
import { asWriteError, DIR_MODE, ensureDir, FILE_MODE, uniqueHex } from './atomicFile';
import { isDead, ME, parseHolder, STALE_MS, type Holder, type Seen } from './lockHolder';
// The calls of an uncontended claim and release (fsCalls.ts); the rest, on contention only, use fs.promises.
import * as fsCalls from './fsCalls';

export { procStart, STALE_MS } from './lockHolder';

/** How long a writer waits for a live holder before giving up. */
const WAIT_MS = 40_000;
const REFRESH_MS = STALE_MS / 3;
/** The vault-wide gate a sync holds; a lock like the others, so a dead syncer's gate is judged and broken the same way. */
const GATE_KEY = 'vault:sync';

function keyOf(raw: string): string {
  try {
    const v = JSON.parse(raw) as { key?: unknown };
    return typeof v.key === 'string' ? v.key : '';
  } catch {
    return '';
  }
}

/** What the lock file says now; null when there is none; 'unreadable' when it cannot be read (then it is waited for, never broken). */
async function look(file: string): Promise<Seen | null | 'unreadable'> {
  try {
    const [raw, st] = await Promise.all([fs.promises.readFile(file, 'utf8'), fs.promises.stat(file)]);
    return { holder: parseHolder(raw), raw, mtimeMs: st.mtimeMs };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    // EISDIR: a lock folder made by hand or by an older Baton; judged by its age.
    if (code === 'EISDIR') {
      const st = await fs.promises.stat(file).catch(() => null);
      return st ? { holder: null, raw: '\0dir', mtimeMs: st.mtimeMs } : null;
    }
    return 'unreadable';
  }
}

/** Creates `file` holding `content`, whole or not at all; false when it exists. */
async function claim(file: string, content: string): Promise<boolean> {
  const tmp = `${file}.${process.pid}-${uniqueHex(4)}.tmp`;
  try {
    await fsCalls.writeFile(tmp, content, { flag: 'wx', mode: FILE_MODE });
  } catch (err) {
    throw asWriteError(err, file);
  }
  try {
    await fsCalls.link(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw asWriteError(err, file);
  } finally {
    // unlink, not rm: rm loads Node's recursive remover for one file.
    await fsCalls.unlink(tmp).catch(() => undefined);
  }
  // No hard links here: an exclusive create, then the content (a reader that
  // sees it empty judges the lock by its age, which is fresh).
  try {
    await fs.promises.writeFile(file, content, { flag: 'wx', mode: FILE_MODE });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw asWriteError(err, file);
  }
}

/**
 * Removes a dead lock, under `<lock>.break` so that only one process breaks at
 * a time, and only if the file is still the one that was judged dead.
 */
async function breakDead(file: string, judged: Seen): Promise<boolean> {
  const breaker = `${file}.break`;
  try {
    await fs.promises.mkdir(breaker, { mode: DIR_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw asWriteError(err, breaker);
    // Breaking takes a millisecond; a breaker this old was killed while breaking.
    const st = await fs.promises.stat(breaker).catch(() => null);
    if (st && Date.now() - st.mtimeMs > STALE_MS) await fs.promises.rmdir(breaker).catch(() => undefined);
    return false;
  }
  try {
    const now = await look(file);
    if (!now || now === 'unreadable' || now.raw !== judged.raw || now.mtimeMs !== judged.mtimeMs) return true;
    if (now.raw === '\0dir') await fs.promises.rm(file, { recursive: true, force: true });
    else await fs.promises.unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw asWriteError(err, file);
  } finally {
    await fs.promises.rmdir(breaker).catch(() => undefined);
  }
  await sweep(path.dirname(file));
  return true;
}

/** Temporary files of claims whose process was killed in between; harmless, but they should not pile up. */
async function sweep(dir: string): Promise<void> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith('.tmp')) continue;
    const full = path.join(dir, name);
    const st = await fs.promises.stat(full).catch(() => null);
    if (st && Date.now() - st.mtimeMs > STALE_MS) await fs.promises.rm(full, { force: true }).catch(() => undefined);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class VaultLocks {
  /**
   * `stillBusy`: files whose presence keeps a dead syncer's gate standing. A
   * sync killed while its git runs leaves that git running (SIGKILL does not
   * reach children), still rewriting the working tree; git holds its
   * `index.lock` until it is done, so the gate is broken only after that.
   */
  constructor(
    private readonly dir: string,
    private readonly stillBusy: string[] = [],
  ) {}

  private lockPath(key: string): string {
    // The same name every Baton version gives this key (a plain-JavaScript SHA-256, core/sha256.ts).
    const digest = sha256Hex(key).slice(0, 24);
    return path.join(this.dir, `${digest}.lock`);
  }

  /**
   * Takes the lock, waiting up to `waitMs` for a live holder; a dead one is
   * broken at once. Returns the release function, or null when still busy.
   */
  /** Who held the lock when a wait gave up, for the message. */
  private lastHolder: Holder | null = null;

  private async acquire(key: string, waitMs: number): Promise<(() => Promise<void>) | null> {
    // The locks folder is made when a claim finds it missing (below), not
    // before every claim: after the first lock it exists, and an edit hook
    // takes a lock on every edit.
    const file = this.lockPath(key);
    const token = uniqueHex(12);
    const content = JSON.stringify({ host: ME.host, ns: ME.ns, boot: ME.boot, pid: process.pid, start: ME.start, token, key: key.slice(0, 200) });
    const deadline = Date.now() + waitMs;
    let delay = 5;
    for (;;) {
      let won: boolean;
      try {
        won = await claim(file, content);
      } catch (err) {
        // No locks folder yet, or it was deleted under us (by hand: nothing of
        // Baton's deletes it): make it and claim again.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || Date.now() >= deadline + STALE_MS) throw err;
        await ensureDir(this.dir);
        continue;
      }
      if (won) return this.holding(file, content);
      const seen = await look(file);
      if (seen === null) continue; // released in between: claim again at once
      // Another process breaking it at the same moment: wait like for a live holder.
      if (seen !== 'unreadable' && isDead(seen) && (await breakDead(file, seen))) continue;
      if (Date.now() >= deadline) {
        this.lastHolder = seen === 'unreadable' ? null : seen.holder;
        return null;
      }
      await sleep(Math.min(delay, Math.max(1, deadline - Date.now())) * (0.5 + Math.random()));
      delay = Math.min(100, delay * 1.3);
    }
  }

  /** While held, the lock's mtime is kept fresh so no one judges it dead by age. */
  private holding(file: string, content: string): () => Promise<void> {
    const timer = setInterval(() => {
      const t = new Date();
      fs.promises.utimes(file, t, t).catch(() => undefined);
    }, REFRESH_MS);
    timer.unref();
    return async () => {
      clearInterval(timer);
      // Only our own lock: if it was broken while we were stalled, the file
      // may now be someone else's.
      const raw = await fsCalls.readFile(file, 'utf8').catch(() => '');
      if (raw === content) await fsCalls.unlink(file).catch(() => undefined);
    };
  }

  private busy(key: string, h: Holder | null = this.lastHolder): BatonError {
    const who = h && h.host === ME.host && h.ns === ME.ns ? `process ${h.pid} on this machine` : h ? `process ${h.pid} on ${h.host}` : 'another Baton process';
    return new BatonError(
      'failed',
      `Could not lock "${key}" in the vault within ${WAIT_MS / 1000}s: ${who} is holding it and still running ` +
        `(or is stopped: Ctrl-Z, a debugger). Retry when it finishes, or resume it.`,
    );
  }

  /**
   * Waits (bounded) for the lock, runs `fn`, releases even when `fn` throws.
   * `gated` (every writer of vault files): also waits while a sync holds the
   * vault's gate. The gate is checked after the lock is taken, never before
   * only: a writer that saw no gate holds its lock from before the gate was
   * made, and the sync waits for that lock to go (`exclusive`). Waiting for
   * the gate without the lock, a writer can never deadlock with a sync that
   * waits for it. The cost on the hot path is one failed open of the gate file.
   */
  async with<T>(key: string, fn: () => Promise<T>, gated = false): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const release = await this.acquire(key, Math.max(0, deadline - Date.now()));
      if (!release) throw this.busy(key);
      const gate = gated ? await this.liveGate() : null;
      if (!gate) {
        try {
          return await fn();
        } finally {
          await release();
        }
      }
      await release();
      if (Date.now() >= deadline) throw this.busy('the vault (a baton sync)', gate.holder);
      await sleep(20 + Math.random() * 30);
    }
  }

  /** The gate when a live sync holds it; null when there is none or its holder is dead. */
  private async liveGate(): Promise<Seen | null> {
    const file = this.lockPath(GATE_KEY);
    // One synchronous stat on the hot path (no trip through libuv's pool): there is almost never a sync running.
    if (!fs.existsSync(file)) return null;
    const seen = await look(file);
    if (seen === null) return null;
    if (seen === 'unreadable') return { holder: null, raw: '', mtimeMs: Date.now() };
    if (!isDead(seen)) return seen;
    return this.stillBusy.some((f) => fs.existsSync(f)) ? seen : null;
  }

  /**
   * Runs `fn` while no writer of the vault's files is writing, nor starts to:
   * takes the gate every gated writer checks, then waits until every scope
   * lock taken before the gate existed is released. For `baton sync`, while
   * git commits and rewrites the working tree: an append into a file that a
   * merge is replacing would be lost.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(GATE_KEY, WAIT_MS);
    if (!release) throw this.busy('the vault (another baton sync)');
    try {
      await this.drain(Date.now() + WAIT_MS);
      return await fn();
    } finally {
      await release();
    }
  }

  /** Waits for every live holder of a scope lock seen now to let go. */
  private async drain(deadline: number): Promise<void> {
    const gate = path.basename(this.lockPath(GATE_KEY));
    const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith('.lock') || name === gate) continue;
      const file = path.join(this.dir, name);
      const first = await look(file);
      if (first === null || (first !== 'unreadable' && (isDead(first) || !keyOf(first.raw).startsWith('scope:')))) continue;
      for (;;) {
        const now = await look(file);
        if (now === null || (first !== 'unreadable' && now !== 'unreadable' && (now.raw !== first.raw || isDead(now)))) break;
        if (first === 'unreadable' && now !== 'unreadable') break;
        if (Date.now() >= deadline) throw this.busy(first === 'unreadable' ? name : keyOf(first.raw), first === 'unreadable' ? null : first.holder);
        await sleep(10 + Math.random() * 20);
      }
    }
  }

  /** Takes the lock only if it is free right now (or its holder is dead); returns null when busy. */
  async tryWith<T>(key: string, fn: () => Promise<T>): Promise<T | null> {
    const release = await this.acquire(key, 0);
    if (!release) return null;
    try {
      return await fn();
    } finally {
      await release();
    }
  }
}

/**
 * The lock files under `dir` whose holder is dead, judged as a writer would
 * judge them, for `baton doctor`. Read-only: the next writer of that scope
 * breaks such a lock at once, so this only reports them.
 */
export async function deadLocks(dir: string): Promise<string[]> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const dead: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.lock')).sort()) {
    const file = path.join(dir, name);
    const seen = await look(file);
    if (seen !== null && seen !== 'unreadable' && isDead(seen)) dead.push(file);
  }
  return dead;
}
