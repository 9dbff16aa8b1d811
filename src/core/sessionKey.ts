// Ids that come from outside Baton (an agent's own session id, a hook
// payload's field) may end up in a file name. A peer joined such an id into a
// path and let `../../x` escape its folder; here an id becomes a file name only
// through this key.
import { usage } from './errors';
import { maskSecrets } from './secrets';
import { sha256Hex } from './sha256';

const SAFE = /^[A-Za-z0-9_-]{1,128}$/;

// Device names Windows refuses as file names whatever their extension
// (`con.json` cannot be created there): hashed like any other unsafe id.
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * A file-name-safe key for an outside id. An id made only of ASCII letters,
 * digits, `_` and `-` (at most 128 of them) is kept as it is, so a Claude Code
 * session id (a UUID) stays readable in `.baton/`. Anything else (`.`, `/`,
 * `\`, spaces, non-ASCII, control characters, an over-long id, a Windows device
 * name) becomes `sha256-` and the first 32 hex digits of its SHA-256: stable,
 * so the same id always finds the same file, and free of any path syntax.
 * Refuses an empty id, which would name the folder itself.
 */
export function sessionKey(id: string): string {
  if (typeof id !== 'string' || id.length === 0) throw usage('An empty session id cannot name a file.');
  // An id that looks like a token is hashed too: file names are on disk as much as contents.
  if (SAFE.test(id) && !WINDOWS_RESERVED.test(id) && maskSecrets(id).count === 0) return id;
  return `sha256-${sha256Hex(id).slice(0, 32)}`;
}
