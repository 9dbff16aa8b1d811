// Cross-process locks for the vault. Every writer of a scope's notes or
// checkpoints holds its scope's lock, so an append can never land in a file
// that a concurrent fold is about to replace. proper-lockfile's mkdir lock is
// atomic on every local file system, and a lock whose holder was killed goes
// stale instead of blocking the vault forever.
import { createHash } from 'crypto';
import * as path from 'path';
import * as lockfile from 'proper-lockfile';
import { BatonError } from '../../core/errors';
import { ensureDir } from './atomicFile';

const STALE_MS = 10_000;

export class VaultLocks {
  constructor(private readonly dir: string) {}

  private lockPath(key: string): string {
    const digest = createHash('sha256').update(key).digest('hex').slice(0, 24);
    return path.join(this.dir, `${digest}.lock`);
  }

  /** Waits (bounded) for the lock, runs `fn`, releases even when `fn` throws. */
  async with<T>(key: string, fn: () => Promise<T>): Promise<T> {
    await ensureDir(this.dir);
    const target = this.lockPath(key);
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(target, {
        realpath: false,
        stale: STALE_MS,
        retries: { retries: 400, factor: 1.3, minTimeout: 5, maxTimeout: 100, randomize: true },
      });
    } catch (err) {
      throw new BatonError('failed', `Could not lock "${key}" in the vault (${(err as Error).message}). Another Baton process may be stuck; retry in ${STALE_MS / 1000}s.`);
    }
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  }

  /** Takes the lock only if it is free right now; returns null when busy. */
  async tryWith<T>(key: string, fn: () => Promise<T>): Promise<T | null> {
    await ensureDir(this.dir);
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(this.lockPath(key), { realpath: false, stale: STALE_MS, retries: 0 });
    } catch {
      return null;
    }
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  }
}
