// Where a hook's failure goes. A hook must never fail the agent, and its
// stderr is shown to the agent (or hidden) at the agent's discretion, so the
// reason is kept in the vault's derived folder where a person can look.
import * as fs from 'fs';
import * as path from 'path';
import { maskSecrets } from '../core/secrets';
import { hookLogFile } from '../app/vaultFiles';

// Past this the log is rotated once: a broken setup that fails on every tool
// call must not grow a file without bound.
const MAX_BYTES = 256 * 1024;

/** Appends one line to `<vault>/.baton/hooks.log`; never throws (there is nowhere left to report to). */
export function logHookError(vaultRoot: string, event: string, err: unknown): void {
  logHookLine(vaultRoot, event, err instanceof Error ? err.message : String(err));
}

/** One line of the hook log: a failure's message, or why a hook wrote nothing. Never throws. */
export function logHookLine(vaultRoot: string, event: string, message: string): void {
  try {
    const file = hookLogFile(vaultRoot);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      if (fs.statSync(file).size > MAX_BYTES) fs.renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
    // Masked like anything else written under the vault: a message may quote the payload.
    const text = maskSecrets(message.replace(/\s+/g, ' ')).text.slice(0, 2000);
    const line = `${new Date().toISOString()} ${event} ${text}\n`;
    fs.appendFileSync(file, line, { mode: 0o600 });
  } catch {
    // The vault itself is unwritable: staying quiet is the contract.
  }
}
