// Notes the vault refused when they were written (a full disk, an unreadable
// notes file) are kept aside by the pending port and written out later, by
// `reindex` (Baton.reindex), once each.
import { VaultReadError, VaultWriteError } from './errors';
import type { NoteLine, PendingPort, VaultPort } from './ports';

/**
 * Writes out every pending note the vault now takes; how many. A note already
 * in its file (a rescue that crashed before forgetting it) is not written
 * twice; one still refused stays pending for a later run.
 */
export async function rescuePending(vault: VaultPort, pending: PendingPort): Promise<number> {
  let rescued = 0;
  for (const p of await pending.list()) {
    const line: NoteLine = { text: p.text, agent: p.agent, ts: p.ts };
    if (p.machine) line.machine = p.machine;
    if (p.agentSession) line.agentSession = p.agentSession;
    try {
      await vault.withScopeLock(p.scope, async () => {
        const present = (await vault.notes(p.scope)).some(
          (n) =>
            n.agent === line.agent &&
            n.ts === line.ts &&
            n.text === line.text &&
            (n.machine ?? '') === (line.machine ?? '') &&
            (n.agentSession ?? '') === (line.agentSession ?? ''),
        );
        if (!present) await vault.appendNote(p.scope, line);
      });
    } catch (err) {
      if (err instanceof VaultWriteError || err instanceof VaultReadError) continue;
      throw err;
    }
    await pending.remove(p.id);
    rescued += 1;
  }
  return rescued;
}
