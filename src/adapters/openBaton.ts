// The composition of the core over real adapters, shared by the CLI, the MCP
// server and the extension so all three see the vault the same way.
import * as path from 'path';
import { Baton } from '../core/baton';
import type { ClockPort } from '../core/ports';
import { SqlIndex } from './index/sqlIndex';
import { FsVault } from './vault/fsVault';
import { PendingNotes } from './vault/pendingNotes';

export const systemClock: ClockPort = { now: () => Math.floor(Date.now() / 1000) };

export function openBaton(vaultRoot: string, clock: ClockPort = systemClock): Baton {
  const vault = new FsVault(vaultRoot);
  return new Baton({
    vault,
    clock,
    pending: new PendingNotes(path.join(vault.dataDir, 'pending')),
    index: {
      acquire: () => SqlIndex.open(vault),
      release: async (index) => {
        try {
          await index.save();
        } finally {
          index.close();
        }
      },
    },
  });
}
