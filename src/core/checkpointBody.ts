// The markdown body of a checkpoint: what a person reads, and what the next
// agent resumes from. Rendering then parsing is an exact round trip on
// normalised fields, and reading forgives what people do to files by hand.
import type { CheckpointFields } from './model';
import { emptyFields } from './model';
import { SEARCH_FIELDS, type SearchText } from './searchText';

type ProseKey = 'task' | 'intent' | 'state' | 'next';
type ListKey = 'decisions' | 'failed' | 'verified' | 'blockers' | 'commands' | 'questions' | 'files';

export interface Section {
  heading: string;
  key: ProseKey | ListKey;
  prose: boolean;
  /** Whether text here makes a checkpoint say something (see isEmptyCheckpoint). */
  says: boolean;
}

/**
 * The contract's sections in its order: the one table the writer, `parseBody`
 * and the index's `bodyFacts` all read. A section is written only when it has
 * content.
 */
export const SECTIONS: readonly Section[] = [
  { heading: 'Task', key: 'task', prose: true, says: true },
  { heading: 'Intent', key: 'intent', prose: true, says: false },
  { heading: 'State', key: 'state', prose: true, says: true },
  { heading: 'Decisions', key: 'decisions', prose: false, says: true },
  { heading: "Didn't work", key: 'failed', prose: false, says: true },
  { heading: 'Verified', key: 'verified', prose: false, says: true },
  { heading: 'Blockers', key: 'blockers', prose: false, says: true },
  { heading: 'Commands run', key: 'commands', prose: false, says: false },
  { heading: 'Open questions', key: 'questions', prose: false, says: true },
  { heading: 'Files', key: 'files', prose: false, says: false },
  { heading: 'Next', key: 'next', prose: true, says: true },
];

// Headings are matched loosely (case, spacing, closing `##`, a typographic
// apostrophe from an editor's smart quotes) because people retype them by hand.
const headingKey = (h: string): string =>
  h
    .replace(/[ \t]+#+[ \t]*$/, '')
    .trim()
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/\s+/g, ' ');
const BY_KEY = new Map(SECTIONS.map((s) => [headingKey(s.heading), s]));
/** The headings exactly as Baton writes them: most files need no normalising at all. */
const BY_HEADING = new Map(SECTIONS.map((s) => [s.heading, s]));
const BY_FIELD = new Map(SECTIONS.map((s) => [s.key, s]));
/** The section a heading names, matched as loosely as people retype it. */
export const sectionOf = (heading: string): Section | undefined => BY_HEADING.get(heading) ?? BY_KEY.get(headingKey(heading));

const HEADING = /^##[ \t]+(.*)$/;
// `[^\n]`, not `.`: a bare CR or U+2028 inside a hand-written bullet belongs to
// that item (readItems folds it onto one line), it does not drop the item.
const BULLET = /^[ \t]*[-*+](?:[ \t]+([^\n]*))?$/;

/**
 * Prose as it can be stored: CRLF (and any run of CRs before a LF, which an
 * editor would show as one line end) becomes LF, leading blank (whitespace-only)
 * lines and trailing whitespace of the whole text go. A blank line separates a
 * heading from its text, so neither edge could be told apart on reading; with
 * them gone, `parseBody(renderBody(f))` gives back exactly `normalizeProse` of
 * every prose field.
 */
export function normalizeProse(s: string): string {
  return s
    .replace(/\r+\n/g, '\n')
    .replace(/^(?:[^\S\n]*\n)+/, '')
    .trimEnd();
}

/**
 * One bullet item or note on one line: every run of line breaks and tabs is
 * one space, then trimmed. Unicode line separators count too, since editors
 * would show them as a new line that is not a bullet.
 */
export function oneLine(s: string): string {
  return s.replace(/[\t\n\v\f\r\u0085\u2028\u2029]+/g, ' ').trim();
}

/** Bullet items as stored: folded onto one line, empty ones dropped. */
export function normalizeItems(items: readonly string[]): string[] {
  return items.map(oneLine).filter((i) => i !== '');
}

/** The fields exactly as they come back from disk. */
export function normalizeFields(f: CheckpointFields): CheckpointFields {
  return {
    task: normalizeProse(f.task),
    intent: normalizeProse(f.intent),
    state: normalizeProse(f.state),
    decisions: normalizeItems(f.decisions),
    failed: normalizeItems(f.failed),
    verified: normalizeItems(f.verified),
    blockers: normalizeItems(f.blockers),
    commands: normalizeItems(f.commands),
    questions: normalizeItems(f.questions),
    files: normalizeItems(f.files),
    next: normalizeProse(f.next),
  };
}

// A prose line that begins (after spaces and any backslashes) with `#` gets one
// more backslash, and the reader takes exactly one away: a `## Next` typed into
// a task can neither end the section nor forge another, and the mapping is a
// bijection, so text that already has backslashes comes back unchanged.
const escapeProse = (text: string): string => text.replace(/^([ \t]*)(\\*#)/gm, '$1\\$2');
const unescapeProse = (text: string): string => text.replace(/^([ \t]*)\\(\\*#)/gm, '$1$2');

/** The body: sections in the contract's order, each only when non-empty, ending in one newline ("" when none). */
export function renderBody(f: CheckpointFields): string {
  const parts: string[] = [];
  for (const s of SECTIONS) {
    if (s.prose) {
      const text = normalizeProse(f[s.key as ProseKey] ?? '');
      if (text) parts.push(`## ${s.heading}\n\n${escapeProse(text)}\n`);
    } else {
      const items = normalizeItems(f[s.key as ListKey] ?? []);
      if (items.length) parts.push(`## ${s.heading}\n\n${items.map((i) => `- ${i}\n`).join('')}`);
    }
  }
  return parts.join('\n');
}

/** Bullet lines become items; an indented plain line continues the item above it (a hand-wrapped bullet). */
function readItems(lines: string[]): string[] {
  const items: string[] = [];
  let open = false;
  for (const line of lines) {
    const m = BULLET.exec(line);
    if (m) {
      items.push(m[1] ?? '');
      open = true;
    } else if (open && /^[ \t]+\S/.test(line)) {
      items[items.length - 1] += ` ${line.trim()}`;
    } else {
      open = false;
    }
  }
  return normalizeItems(items);
}

/**
 * Calls `visit` with each known section's content (the text between its
 * heading line and the next heading, known or not) in file order; text before
 * the first heading and under unknown headings is skipped. It jumps from one
 * `\n##` to the next instead of looking at every line: a body is mostly prose,
 * and this is what a cold build of the index spends its time on.
 */
function eachSection(input: string, visit: (s: Section, content: string, start: number, end: number, body: string) => void): string {
  const body = input.includes('\r') ? input.replace(/\r+\n/g, '\n') : input;
  // The start of the next line that may be a heading, -1 when there is none.
  const nextCandidate = (from: number): number => {
    const i = body.indexOf('\n##', from);
    return i < 0 ? -1 : i + 1;
  };
  let at = body.startsWith('##') ? 0 : nextCandidate(0);
  let section: Section | undefined;
  let contentStart = -1;
  const close = (end: number): void => {
    if (section) visit(section, contentStart > end ? '' : body.slice(contentStart, end), contentStart, end, body);
  };
  while (at >= 0) {
    let lineEnd = body.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = body.length;
    const h = HEADING.exec(body.slice(at, lineEnd));
    if (h) {
      close(at - 1);
      section = sectionOf(h[1] ?? '');
      contentStart = lineEnd + 1;
    }
    at = lineEnd >= body.length ? -1 : nextCandidate(lineEnd);
  }
  close(body.length);
  return body;
}

/** A prose section's chunks (a section repeated by hand is joined, not lost). */
const joinProse = (chunks: readonly string[]): string =>
  chunks
    .map((c) => unescapeProse(normalizeProse(c)))
    .filter((t) => t !== '')
    .join('\n\n');

const itemsOf = (chunks: readonly string[]): string[] => chunks.flatMap((c) => readItems(c.split('\n')));

/**
 * Each known section's chunks, in file order; with `pieces`, the stretches of
 * `body` search reads (bodyFacts), into it.
 */
function chunksOf(input: string, pieces?: number[]): { chunks: Map<Section, string[]>; body: string } {
  const chunks = new Map<Section, string[]>();
  const body = eachSection(input, (s, content, start, end, text) => {
    const list = chunks.get(s);
    if (list) list.push(content);
    else chunks.set(s, [content]);
    const field = SEARCHED.get(s.key);
    if (!pieces || field === undefined || start > end) return;
    if (s.prose) pieces.push(start, end, field);
    else itemLines(text, start, end, field, pieces);
  });
  return { chunks, body };
}

/** Each section's place in SEARCH_FIELDS (Commands run is not searched). */
const SEARCHED = new Map<string, number>(SEARCH_FIELDS.map((f, i) => [f, i]));
/** JavaScript's `\s`, as readItems' regular expressions read it, for one UTF-16 unit. */
const SPACE = /\s/;

/**
 * The lines of a list section's chunk (`body` from `start` to `end`) that
 * readItems makes items of, into `pieces` as field `field`: by readItems'
 * rules, without its strings. A line's marker and spaces are in no word, so
 * the whole line is the stretch.
 */
function itemLines(body: string, start: number, end: number, field: number, pieces: number[]): void {
  let open = false;
  for (let at = start; at <= end;) {
    let eol = body.indexOf('\n', at);
    if (eol < 0 || eol > end) eol = end;
    let i = at;
    while (i < eol && (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9)) i++;
    const c = body.charCodeAt(i);
    // BULLET: spaces, `-`, `*` or `+`, then the line's end or a space or tab.
    const bullet = i < eol && (c === 45 || c === 42 || c === 43) && (i + 1 === eol || body.charCodeAt(i + 1) === 32 || body.charCodeAt(i + 1) === 9);
    if (bullet || (open && i > at && i < eol && !SPACE.test(body[i]))) {
      pieces.push(at, eol, field);
      open = true;
    } else open = false;
    at = eol + 1;
  }
}

/**
 * Reads a body forgivingly: text before the first `## ` heading and unknown
 * headings are ignored, `-`, `*` and `+` bullets all count, and a section that
 * is missing stays absent (undefined, not an empty list) so re-rendering an
 * old note adds no empty headings. A section repeated by hand is joined, not
 * lost. Never throws.
 */
export function parseBody(body: string): Partial<CheckpointFields> {
  const out: Partial<CheckpointFields> = {};
  for (const [s, chunks] of chunksOf(body).chunks) {
    if (s.prose) {
      const text = joinProse(chunks);
      if (text) out[s.key as ProseKey] = text;
    } else {
      const items = itemsOf(chunks);
      if (items.length) out[s.key as ListKey] = items;
    }
  }
  return out;
}

/** What the index keeps of a body: `parseFields` read only as far as that needs. */
export interface BodyFacts {
  task: string;
  next: string;
  files: string[];
  failed: string[];
  /** `isEmptyCheckpoint` of the body. */
  empty: boolean;
  /** What full-text search indexes (null when not asked): the fields `parseFields` reads, as the stretches of the body they come from. */
  search: SearchText | null;
}

/**
 * The index's reading of a body, by the same sections as `parseBody` (the
 * unit tests pin the two together), but of the rest it only asks whether it
 * says anything: State and Intent, most of a body, are never normalised.
 */
export function bodyFacts(input: string, search = true): BodyFacts {
  const pieces: number[] | undefined = search ? [] : undefined;
  const { chunks, body } = chunksOf(input, pieces);
  const of = (key: Section['key']): string[] => chunks.get(BY_FIELD.get(key) as Section) ?? [];
  const task = joinProse(of('task'));
  const next = joinProse(of('next'));
  const failed = itemsOf(of('failed'));
  let says = task !== '' || next !== '' || failed.length > 0;
  for (const [s, list] of chunks) {
    if (says) break;
    if (s.says) says = s.prose ? list.some((c) => /\S/.test(c)) : itemsOf(list).length > 0;
  }
  const files = itemsOf(of('files'));
  return { task, next, files, failed, empty: !says, search: pieces ? { text: body, pieces } : null };
}

/** Every field filled: what a reader gets when it wants no undefined. */
export function parseFields(body: string): CheckpointFields {
  return { ...emptyFields(), ...parseBody(body) };
}

/**
 * Commands and Files alone record what was typed, not what is true, so a
 * checkpoint with nothing else says nothing and is skipped in history.
 */
export function isEmptyCheckpoint(f: Partial<CheckpointFields>): boolean {
  const blank = (v: string | readonly string[] | undefined): boolean => !v || (typeof v === 'string' ? v.trim() === '' : v.every((i) => i.trim() === ''));
  return SECTIONS.every((s) => !s.says || blank(f[s.key]));
}
