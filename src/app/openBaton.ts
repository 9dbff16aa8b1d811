// The one composition of the core over the real adapters. Every door (the CLI,
// the MCP server, the hooks, the extension), the bench and the tests open
// Baton here, so all of them see a vault the same way; what differs between
// them is passed in (how the index is lent, the clock, who hears of writes),
// as unstorage's createStorage takes its driver.
import { Baton } from '../core/baton';
import type { ClockPort, IndexLease } from '../core/ports';
// Loaded on first use: a note, a hook's edit record, never opens the index,
// and loading sql.js's glue costs a hook more than its write.
import type { IndexOptions, SqlIndex as SqlIndexType } from '../adapters/index/sqlIndex';
import { SharedIndexLease, type SharedIndexOptions } from '../adapters/sharedIndex';
import { FsVault } from '../adapters/vault/fsVault';
import { PendingNotes } from '../adapters/vault/pendingNotes';
import { machineOrigin } from '../adapters/vault/machineId';

export const systemClock: ClockPort = { now: () => Math.floor(Date.now() / 1000) };

export interface OpenOptions {
  clock?: ClockPort;
  /**
   * How the core borrows the index. By default it is opened, saved and closed
   * per use, as a CLI process wants; the extension lends one it keeps open
   * (`keptIndex`).
   */
  index?: IndexLease;
  /** Told the scope after each write of the core (failed halfway too), so caches drop what they held. */
  onWrite?(scope: string): void;
  /** How the index is built (full-text search on or off, workers); by default `indexOptions(process.env)`. */
  indexOptions?: IndexOptions;
}

/**
 * The index's options as this process was started with them. The one switch
 * read from the environment, here at the composition root and nowhere in
 * the index: BATON_INDEX_WORKER=1 has a cold build read every file in worker
 * threads, a worker that cannot start or fails being an error (how the tests
 * of the built CLI know the shipped worker did the reading); =0 never starts
 * one.
 */
export function indexOptions(env: NodeJS.ProcessEnv): IndexOptions {
  const w = env.BATON_INDEX_WORKER;
  return w === '1' ? { workers: { mode: 'always', steal: false } } : w === '0' ? { workers: { mode: 'never' } } : {};
}

export function openBaton(vaultRoot: string, opts: OpenOptions = {}): Baton {
  const vault = new FsVault(vaultRoot);
  return new Baton({
    vault,
    clock: opts.clock ?? systemClock,
    pending: new PendingNotes(vault.pendingDirs),
    index: opts.index ?? perUseIndex(vault, opts.indexOptions ?? indexOptions(process.env)),
    onWrite: opts.onWrite,
    origin: machineOrigin(vaultRoot),
  });
}

/** The index kept open and lent in turn (see sharedIndex.ts): for a process that asks many questions. */
export function keptIndex(vaultRoot: string, opts: Omit<SharedIndexOptions, 'open'> & { indexOptions?: IndexOptions } = {}): SharedIndexLease {
  const vault = new FsVault(vaultRoot);
  const { indexOptions: options = indexOptions(process.env), ...lease } = opts;
  return new SharedIndexLease({ ...lease, open: () => openIndex(vault, options) });
}

function perUseIndex(vault: FsVault, options: IndexOptions): IndexLease {
  return {
    acquire: () => openIndex(vault, options),
    release: async (index) => {
      try {
        await index.save();
      } finally {
        index.close();
      }
    },
  };
}

// A require, not import(): the tests run this file through tsx's CommonJS hook,
// which a real dynamic import would bypass; esbuild keeps it lazy either way.
const openIndex = (vault: FsVault, options: IndexOptions): Promise<SqlIndexType> =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('../adapters/index/sqlIndex') as { SqlIndex: typeof SqlIndexType }).SqlIndex.open(vault, options);
