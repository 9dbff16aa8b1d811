// The one composition of the core over the real adapters. Every door (the CLI,
// the MCP server, the hooks, the extension), the bench and the tests open
// Baton here, so all of them see a vault the same way; what differs between
// them is passed in (how the index is lent, the clock, who hears of writes),
// as unstorage's createStorage takes its driver.
import { Baton } from '../core/baton';
import type { ClockPort, IndexLease } from '../core/ports';
// Loaded on first use: a note, a hook's edit record, never opens the index,
// and loading sql.js's glue costs a hook more than its write.
import type { SqlIndex as SqlIndexType } from '../adapters/index/sqlIndex';
import { SharedIndexLease, type SharedIndexOptions } from '../adapters/sharedIndex';
import { FsVault } from '../adapters/vault/fsVault';
import { PendingNotes } from '../adapters/vault/pendingNotes';

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
}

export function openBaton(vaultRoot: string, opts: OpenOptions = {}): Baton {
  const vault = new FsVault(vaultRoot);
  return new Baton({
    vault,
    clock: opts.clock ?? systemClock,
    pending: new PendingNotes(vault.pendingDirs),
    index: opts.index ?? perUseIndex(vault),
    onWrite: opts.onWrite,
  });
}

/** The index kept open and lent in turn (see sharedIndex.ts): for a process that asks many questions. */
export function keptIndex(vaultRoot: string, opts: Omit<SharedIndexOptions, 'open'> = {}): SharedIndexLease {
  const vault = new FsVault(vaultRoot);
  return new SharedIndexLease({ ...opts, open: () => openIndex(vault) });
}

function perUseIndex(vault: FsVault): IndexLease {
  return {
    acquire: () => openIndex(vault),
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
const openIndex = (vault: FsVault): Promise<SqlIndexType> =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('../adapters/index/sqlIndex') as { SqlIndex: typeof SqlIndexType }).SqlIndex.open(vault);
