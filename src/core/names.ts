// Names become path segments in the vault. The rules are the vault contract's
// (shared with the Go tool Logos), so the same project name lands in the same
// folder whichever tool wrote it, and no name can ever point outside the vault.
import { refused } from './errors';
import { isSecretName } from './secrets';

const MAX_BYTES = 255;

const KEEP = /[\p{L}\p{N}\p{M}]/u;
const SEPARATOR = /[-_ /.]/;

const utf8Length = (cp: number): number => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/** Cuts on a code point boundary so a UTF-8 sequence is never split (file systems refuse half a character). */
function cutBytes(s: string, max: number): string {
  let bytes = 0;
  let out = '';
  for (const ch of s) {
    bytes += utf8Length(ch.codePointAt(0) ?? 0);
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

// Entry points differ in how a name is given (flag, setting, tool argument), so
// the message names the thing and leaves the spelling of the option to them.
const neededMessage = (what: string): string =>
  what === 'project' ? 'A project is needed: run inside a project folder, or give the project name.' : `A ${what} is needed: give the ${what} name.`;

const trimDashes = (s: string): string => s.replace(/^-+|-+$/g, '');

/** A name as a message shows it: trimmed, and long ones cut (a 4 KB name would bury the message). */
const shown = (name: string): string => {
  const t = name.trim();
  return t.length > 60 ? `${t.slice(0, 40)}…` : t;
};

// The message never repeats the name: it is the secret.
const secretMessage = (what: string): string =>
  `The ${what} name looks like a secret (a token, key or password). Names become folder and file names, ` +
  'titles and frontmatter in the vault, so it was not written: use a plain name.';

/**
 * A name as a path segment: lowercase, letters and digits of any script (with
 * their combining marks, so Devanagari or Thai names keep their vowel signs),
 * each run of `-`, `_`, space, `/`, `.` as one `-`, everything else dropped,
 * at most 255 UTF-8 bytes. `"Kestrel One"` and `"kestrel-one"` are one project
 * on purpose. Returns "" when nothing survives; callers that need a name use
 * `safeName`, which refuses instead.
 *
 * Other characters are dropped *before* runs are collapsed, so `"a - ! - b"`
 * is `"a-b"`, not `"a--b"`.
 *
 * Names are compared in Unicode NFC: `café` typed composed (U+00E9) or
 * decomposed (`e` + U+0301, as macOS file names are) is one project. A name
 * that is or holds a secret (`isSecretName`) gives "" too: it must never
 * become a file name; `safeName` and `safeScope` refuse it with a message.
 */
export function safe(name: string): string {
  if (isSecretName(name)) return '';
  let out = '';
  for (const ch of name.normalize('NFC').toLowerCase().normalize('NFC').trim()) {
    if (KEEP.test(ch)) out += ch;
    else if (SEPARATOR.test(ch)) {
      if (!out.endsWith('-')) out += '-';
    }
  }
  return trimDashes(cutBytes(trimDashes(out), MAX_BYTES));
}

/**
 * `safe(name)`, refusing what would make no file name: a blank name (the
 * message says a `what` is needed) or one with no letters or digits (`"🚀"`,
 * `"!!!"`), which would otherwise collapse into "" and write into the parent.
 */
export function safeName(name: string, what: string): string {
  if (!name || !name.trim()) throw refused(neededMessage(what));
  if (isSecretName(name)) throw refused(secretMessage(what));
  const s = safe(name);
  if (!s) {
    throw refused(`The ${what} name "${shown(name)}" has no letters or digits to make a filename from: use a name with at least one letter or digit.`);
  }
  return s;
}

/**
 * A scope, `project` or `project/worktree`: each part through `safe`, empty
 * parts dropped. `..`, `.`, a leading `/` and backslashes (treated as
 * separators too, for Windows paths) can never survive, so nothing is written
 * outside the vault. More than two parts left (`a/b/c`, `C:\Users\me`) is
 * refused, not cut: cutting silently merged `a/b/c` into `a/b`.
 */
export function safeScope(scope: string): string {
  if (!scope || !scope.trim()) throw refused(neededMessage('project'));
  if (isSecretName(scope)) throw refused(secretMessage('project'));
  const parts = scope
    .split(/[/\\]/)
    .map(safe)
    .filter((p) => p !== '');
  if (parts.length > 2) {
    throw refused(
      `The scope "${shown(scope)}" has ${parts.length} parts: a scope has at most two parts, a project or project/worktree ` +
        '(one "/" at most). Give the project, or the project and one worktree.',
    );
  }
  if (parts.length === 0) {
    throw refused(`The project "${shown(scope)}" has no letters or digits to make a filename from: use a name with at least one letter or digit.`);
  }
  // A worktree named "plans" would land in the project's plans folder, where
  // its checkpoints are never read as checkpoints: it gets a name of its own.
  if (parts[1] === 'plans') parts[1] = 'plans-worktree';
  return parts.join('/');
}

/** The project a scope belongs to: worktree scopes roll up into it. */
export function rootProject(scope: string): string {
  return scope.split(/[/\\]/)[0] ?? '';
}

/**
 * The agent from a file's id `<stamp>-<agent>` (or `plan-<stamp>-<agent>`):
 * every reader's fallback for a file whose frontmatter lost it.
 */
export function agentOfId(id: string): string {
  return /^(?:plan-)?[0-9]{8}-[0-9]{6}-(.+)$/.exec(id)?.[1] ?? '';
}

/**
 * The name a person's own notes and checkpoints go under when they set none:
 * their git `user.name`, else their login, so a team's hand-overs say who
 * wrote what ("human" on every machine said nothing). A candidate no file name
 * can be made of, or one that looks like a secret, is passed over; "human"
 * only when neither will do.
 */
export function personAgentName(gitUserName: string, osUser: string): string {
  for (const candidate of [gitUserName, osUser]) {
    const name = candidate.trim();
    if (!name) continue;
    try {
      safeName(name, 'agent');
      return name;
    } catch {
      // not a name: try the next
    }
  }
  return 'human';
}
