import * as os from 'os';
import * as path from 'path';

/**
 * Where the vault is: the flag or setting, then BATON_VAULT, LOGOS_VAULT,
 * BRAIN_VAULT, then ~/baton (a visible folder: these are notes people open).
 * A leading `~` is expanded because settings and env vars are often typed so.
 */
export function resolveVault(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  const pick = [explicit, env.BATON_VAULT, env.LOGOS_VAULT, env.BRAIN_VAULT].find((v) => v !== undefined && v.trim() !== '');
  const raw = pick?.trim() ?? path.join(home, 'baton');
  const expanded = raw === '~' ? home : raw.startsWith('~/') ? path.join(home, raw.slice(2)) : raw;
  return path.resolve(expanded);
}

/**
 * The `--vault DIR` or `--vault=DIR` flag at `args[i]`, or null when that is
 * not one: `width` is how many arguments it spans, and `vault` is undefined
 * when the folder is missing (the caller says whether that is an error).
 * Every door started from a command line reads the flag through this.
 */
export function vaultFlagAt(args: readonly string[], i: number): { vault: string | undefined; width: number } | null {
  const a = args[i];
  if (a === '--vault') return { vault: args[i + 1], width: 2 };
  if (a?.startsWith('--vault=')) return { vault: a.slice('--vault='.length), width: 1 };
  return null;
}

/** Where in `args` the first `--vault` flag is, -1 when none is. */
export function findVaultFlag(args: readonly string[]): number {
  return args.findIndex((_, i) => vaultFlagAt(args, i) !== null);
}
