// The fast way into `baton hook`: an entry point (src/cli.ts) that sees a hook
// call can run it from here without loading the CLI's commands, and with them
// the core, sql.js, the YAML parser and git. A hook fires after every tool
// call an agent makes; starting those costs more than the hook's work.
import type { Io } from '../app/io';
import { findVaultFlag, resolveVault, vaultFlagAt } from '../app/vaultLocation';
import { hook } from './hookCommand';

/**
 * `[--vault DIR] hook AGENT EVENT [--vault DIR]` and nothing else: anything
 * more unusual (help, version, other global flags) goes the ordinary way
 * through the CLI, which answers the same.
 */
export function hookArgs(argv: readonly string[]): { vault?: string; args: string[] } | null {
  const rest = [...argv];
  let vault: string | undefined;
  const take = (): boolean => {
    const i = findVaultFlag(rest);
    const flag = i < 0 ? null : vaultFlagAt(rest, i);
    if (!flag) return false;
    vault = flag.vault;
    rest.splice(i, flag.width);
    return vault !== undefined;
  };
  while (take());
  if (rest[0] !== 'hook' || rest.length !== 3 || rest.some((a) => a.startsWith('-'))) return null;
  return { vault, args: rest.slice(1) };
}

export function runHook(call: { vault?: string; args: string[] }, io: Io): Promise<number> {
  return hook({ vault: resolveVault(call.vault, io.env), io }, call.args);
}
