// This clone's machine id (core/origin.ts): 16 random hex digits in
// `.baton-live/machine-id`, made once by the first process that needs it.
// `.baton-live/` is never committed and survives deleting the cache, so the id
// stays while the clone does, and every clone of a shared vault has its own;
// two clones on one machine are two machines on purpose: each would fold the
// other's synced notes otherwise. A random id, not the host name: it says
// nothing about the person and does not change when the host is renamed.
import * as path from 'path';
import type { OriginPort } from '../../core/origin';
import { LIVE_DIR } from '../vaultLayout';
import { createExclusive, ensureDir, uniqueHex } from './atomicFile';
import * as fsCalls from './fsCalls';

const ID = /^[0-9a-f]{16}$/;

export const machineIdFile = (root: string): string => path.join(root, LIVE_DIR, 'machine-id');

async function readId(file: string): Promise<string> {
  try {
    // fs's callbacks, not fs.promises: an edit hook reads this on every edit (fsCalls.ts), and Node's crypto stays unloaded too.
    const id = String(await fsCalls.readFile(file, 'utf8')).trim();
    return ID.test(id) ? id : '';
  } catch {
    return '';
  }
}

/**
 * The id, made if there is none. Two processes making it at once agree: the
 * file is claimed whole and exclusively, and the loser reads the winner's.
 * "" when it cannot be kept (a read-only vault): notes are then written
 * without a machine and read as every note before origins was.
 */
export async function machineId(root: string): Promise<string> {
  const file = machineIdFile(root);
  const held = await readId(file);
  if (held) return held;
  try {
    await ensureDir(path.dirname(file));
    if (await createExclusive(file, `${uniqueHex(8)}\n`)) return readId(file);
  } catch {
    return '';
  }
  // Someone else's (or a damaged file, which is left for a person to see: no id rather than a second one).
  return readId(file);
}

/** The port over one vault, read once per process. */
export function machineOrigin(root: string): OriginPort {
  let id: Promise<string> | undefined;
  return { machine: () => (id ??= machineId(root)) };
}
