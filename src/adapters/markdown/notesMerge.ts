// The three-way merge of a scope's working notes (`uncommitted.md`), for a
// sync: git sees two machines appending to one file as a conflict, and a line
// merge that happens to apply cleanly can still put back a note one side had
// folded. Notes are a set, not text, so they are merged as one:
//   - a note both sides hold stays;
//   - a note only one side added since the base (the common ancestor) arrives;
//   - a note the base held that one side no longer holds was folded (or
//     removed by hand) there and stays gone: folded notes are never
//     resurrected;
//   - every note once (two identical lines, same second, agent and text, are
//     one note).
// Lines that are not notes (the header, what a person wrote) are kept byte for
// byte from our side; such lines the other side added arrive after them.
// A deleted file is a side with no lines: every note it had was folded.
// `local`, the file as it is in the working tree, adds the notes written
// since the merge stopped, which neither side's version in the index holds.
import { noteKey, parseNotes } from './notesFile';

const HEADER = /^(# uncommitted\b.*|Working notes from sessions that have not been checkpointed yet\.)?\r?$/;
const NL = 0x0a;

interface Line {
  raw: Buffer;
  /** The note's identity, or null for a line that is not a note. */
  key: string | null;
}

function linesOf(buf: Buffer | null): Line[] {
  if (!buf || buf.length === 0) return [];
  const out: Line[] = [];
  let start = 0;
  for (;;) {
    const end = buf.indexOf(NL, start);
    const raw = buf.subarray(start, end < 0 ? buf.length : end);
    if (end >= 0 || raw.length > 0) {
      const n = parseNotes(raw.toString('utf8'))[0];
      // The origin is part of a note's identity: the same words in the same second on two machines are two notes.
      out.push({ raw, key: n ? noteKey(n) : null });
    }
    if (end < 0) break;
    start = end + 1;
  }
  return out;
}

const keys = (lines: Line[]): Set<string> => new Set(lines.flatMap((l) => (l.key === null ? [] : [l.key])));
const others = (lines: Line[]): Set<string> => new Set(lines.flatMap((l) => (l.key === null ? [l.raw.toString('latin1')] : [])));

/**
 * The merged file, or null when it holds no open note and nothing but its
 * header (the vault then has no notes file for the scope, as after a fold).
 * null for a side means the file is absent there.
 */
export function mergeNotes(base: Buffer | null, ours: Buffer | null, theirs: Buffer | null, local: Buffer | null = null): Buffer | null {
  const b = linesOf(base);
  // Our side leads; when we have no file, theirs does (its header, its order).
  const [lead, other] = ours ? [linesOf(ours), linesOf(theirs)] : [linesOf(theirs), linesOf(ours)];
  const baseKeys = keys(b);
  const leadKeys = keys(lead);
  const otherKeys = keys(other);
  const gone = (k: string): boolean => baseKeys.has(k) && (!leadKeys.has(k) || !otherKeys.has(k));
  const emitted = new Set<string>();
  const out: Buffer[] = [];
  let content = false;
  const take = (l: Line): void => {
    if (l.key !== null) {
      if (emitted.has(l.key) || gone(l.key)) return;
      emitted.add(l.key);
      content = true;
    } else if (!HEADER.test(l.raw.toString('latin1'))) content = true;
    out.push(l.raw, Buffer.from('\n'));
  };
  lead.forEach(take);
  const baseOthers = others(b);
  const leadOthers = others(lead);
  for (const l of other) {
    if (l.key !== null) {
      if (!leadKeys.has(l.key)) take(l);
    } else {
      const text = l.raw.toString('latin1');
      // A person's line added on the other side only; blank lines and the header are not news.
      if (!HEADER.test(text) && !baseOthers.has(text) && !leadOthers.has(text)) take(l);
    }
  }
  // Notes in the working tree that no side of the merge holds: appended by an
  // agent after the merge stopped (a person's own `git pull`, a sync killed
  // half way: no gate was held then). New by construction, so they arrive.
  const known = new Set([...baseKeys, ...leadKeys, ...otherKeys]);
  const appended = linesOf(local).filter((l) => l.key !== null && !known.has(l.key));
  if (appended.length && out.length === 0) {
    for (const l of linesOf(local)) if (l.key === null && HEADER.test(l.raw.toString('latin1'))) out.push(l.raw, Buffer.from('\n'));
  }
  appended.forEach(take);
  return content ? Buffer.concat(out) : null;
}
