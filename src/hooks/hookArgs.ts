// Whether a `baton` command line is a plain hook call. The entry point asks
// this before loading anything else, so it must stay this small: a hook then
// loads only the hook door (dist/hook.js), every other command only the CLI
// (dist/run.js), and neither pays for compiling the other.
import { findVaultFlag, vaultFlagAt } from '../app/vaultLocation';

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
