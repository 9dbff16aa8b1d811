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
