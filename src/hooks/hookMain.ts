// The fast way into `baton hook`: an entry point (src/cli.ts) that sees a hook
// call can run it from here without loading the CLI's commands, and with them
// the core, sql.js, the YAML parser and git. A hook fires after every tool
// call an agent makes; starting those costs more than the hook's work.
import type { Io } from '../app/io';
import { resolveVault } from '../app/vaultLocation';
import { hook } from './hookCommand';

export function runHook(call: { vault?: string; args: string[] }, io: Io): Promise<number> {
  return hook({ vault: resolveVault(call.vault, io.env), io }, call.args);
}
