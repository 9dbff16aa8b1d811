// A block of Baton's lines inside a person's text file (AGENTS.md, CLAUDE.md),
// between a begin and an end marker line, put in and taken out so the file
// comes back byte for byte. The block is always appended: one line end before
// it (the person's last line ends, or a line end is added), its own lines, one
// line end after. Taking it out removes exactly those, so a file that ended
// without a line end ends without one again. A block at the very start was
// written into a file that did not exist: taking it out deletes the file.
import { refused } from './errors';

export interface MarkedBlock {
  /** The first line, unique enough that no person's line equals it. */
  begin: string;
  end: string;
  /** The lines between the markers. */
  body: readonly string[];
}

type Found = { kind: 'none' } | { kind: 'ours'; at: number; length: number; eol: string };

const lines = (b: MarkedBlock, eol: string): string => [b.begin, ...b.body, b.end].join(eol);

/** Where the file's own line ends are CRLF, Baton's lines are too. */
const eolOf = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

const count = (text: string, word: string): number => text.split(word).length - 1;

/**
 * The block as Baton wrote it, or none. A marker without its pair, a second
 * block, or a block whose lines differ from Baton's is someone's edit: refused
 * with what to do, so no person's words inside the markers are ever lost.
 */
function find(text: string, b: MarkedBlock, file: string): Found {
  const begins = count(text, b.begin);
  const ends = count(text, b.end);
  if (begins === 0 && ends === 0) return { kind: 'none' };
  const edited = refused(
    `${file}: the block between "${b.begin}" and "${b.end}" was edited by hand; Baton changed nothing. ` +
      'Put it back as Baton wrote it, or delete the block with both marker lines, then run the command again.',
  );
  if (begins !== 1 || ends !== 1) throw edited;
  const at = text.indexOf(b.begin);
  if (at > 0 && text[at - 1] !== '\n') throw edited;
  const eol = text.startsWith('\r\n', at + b.begin.length) ? '\r\n' : '\n';
  const want = lines(b, eol);
  const after = at + want.length;
  if (!text.startsWith(want, at) || (after < text.length && !text.startsWith(eol, after))) throw edited;
  return { kind: 'ours', at, length: want.length + (after < text.length ? eol.length : 0), eol };
}

export const hasBlock = (text: string | null, b: MarkedBlock, file: string): boolean => text !== null && find(text, b, file).kind === 'ours';

/** The text with Baton's block appended (a new file when `text` is null); the same text when the block is already there. */
export function withBlock(text: string | null, b: MarkedBlock, file: string): string {
  if (text === null) return lines(b, '\n') + '\n';
  if (find(text, b, file).kind === 'ours') return text;
  const eol = eolOf(text);
  return `${text}${eol}${lines(b, eol)}${eol}`;
}

/** The text without Baton's block, as it was before `withBlock`; null when the block made the file and nothing else is in it. */
export function withoutBlock(text: string, b: MarkedBlock, file: string): string | null {
  const found = find(text, b, file);
  if (found.kind === 'none') return text;
  const rest = text.slice(found.at + found.length);
  if (found.at === 0) return rest === '' ? null : rest;
  const before = text.slice(0, found.at);
  return (before.endsWith(found.eol) ? before.slice(0, -found.eol.length) : before) + rest;
}
