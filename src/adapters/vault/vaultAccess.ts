// Whether the vault folder can be read and written, for `baton doctor`: asked
// of the file system by doing it (a listing, a temporary file created and
// removed), because permission bits do not tell about a read-only mount, a full
// disk, an ACL or a sandbox.
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { LIVE_DIR } from './fsVault';

export interface VaultAccess {
  exists: boolean;
  readable: boolean;
  writable: boolean;
  /** What stops Baton, with what to do; [] when nothing does. */
  problems: string[];
}

const why = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/**
 * A vault that does not exist yet is fine when its nearest existing parent can
 * take a folder: Baton creates it on the first write. The temporary file goes
 * into `.baton-live/` when there is one (where Baton writes its locks), else
 * the vault's root, and is removed at once.
 */
export function vaultAccess(root: string): VaultAccess {
  let st: fs.Stats;
  try {
    st = fs.statSync(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      return { exists: false, readable: false, writable: false, problems: [`The vault ${root} cannot be looked at (${why(err)}).`] };
    let parent = path.dirname(root);
    while (!fs.existsSync(parent) && path.dirname(parent) !== parent) parent = path.dirname(parent);
    try {
      fs.accessSync(parent, fs.constants.W_OK);
      return { exists: false, readable: true, writable: true, problems: [] };
    } catch {
      return {
        exists: false,
        readable: false,
        writable: false,
        problems: [`The vault ${root} does not exist and ${parent} does not let Baton create it: choose another vault (--vault, BATON_VAULT) or create it.`],
      };
    }
  }
  if (!st.isDirectory())
    return { exists: true, readable: false, writable: false, problems: [`The vault ${root} is a file, not a folder: choose another vault (--vault, BATON_VAULT).`] };
  const problems: string[] = [];
  let readable = true;
  try {
    fs.readdirSync(root);
  } catch (err) {
    readable = false;
    problems.push(`The vault ${root} cannot be read (${why(err)}): fix its permissions (chmod u+rwx "${root}").`);
  }
  const live = path.join(root, LIVE_DIR);
  const dir = fs.existsSync(live) ? live : root;
  const probe = path.join(dir, `.doctor-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let writable = true;
  try {
    fs.writeFileSync(probe, 'baton doctor\n', { flag: 'wx' });
  } catch (err) {
    writable = false;
    problems.push(`The vault ${dir} does not take a new file (${why(err)}): fix its permissions or free some space.`);
  } finally {
    fs.rmSync(probe, { force: true });
  }
  return { exists: true, readable, writable, problems };
}
