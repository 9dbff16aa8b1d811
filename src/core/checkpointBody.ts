// The markdown body of a checkpoint: what a person reads, and what the next
// agent resumes from. Rendering then parsing is an exact round trip on
// normalised fields, and reading forgives what people do to files by hand.
import type { CheckpointFields } from './model';
import { emptyFields } from './model';

type ProseKey = 'task' | 'intent' | 'state' | 'next';
type ListKey = 'decisions' | 'failed' | 'verified' | 'blockers' | 'commands' | 'questions' | 'files';

interface Section {
  heading: string;
  key: ProseKey | ListKey;
  prose: boolean;
}

/** The contract's order; a section is written only when it has content. */
const SECTIONS: readonly Section[] = [
  { heading: 'Task', key: 'task', prose: true },
  { heading: 'Intent', key: 'intent', prose: true },
  { heading: 'State', key: 'state', prose: true },
  { heading: 'Decisions', key: 'decisions', prose: false },
  { heading: "Didn't work", key: 'failed', prose: false },
  { heading: 'Verified', key: 'verified', prose: false },
  { heading: 'Blockers', key: 'blockers', prose: false },
  { heading: 'Commands run', key: 'commands', prose: false },
  { heading: 'Open questions', key: 'questions', prose: false },
  { heading: 'Files', key: 'files', prose: false },
  { heading: 'Next', key: 'next', prose: true },
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
const BY_HEADING = new Map(SECTIONS.map((s) => [headingKey(s.heading), s]));

const HEADING = /^##[ \t]+(.*)$/;
const BULLET = /^[ \t]*[-*+](?:[ \t]+(.*))?$/;

/**
 * Prose as it can be stored: CRLF (and any run of CRs before a LF, which an
 * editor would show as one line end) becomes LF, leading blank (whitespace-only)
 * lines and trailing whitespace of the whole text go. A blank line separates a
 * heading from its text, so neither edge could be told apart on reading; with
 * them gone, `parseBody(renderBody(f))` gives back exactly `normalizeProse` of
 * every prose field.
 */
export function normalizeProse(s: string): string {
  return s.replace(/\r+\n/g, '\n').replace(/^(?:[^\S\n]*\n)+/, '').trimEnd();
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
 * Reads a body forgivingly: text before the first `## ` heading and unknown
 * headings are ignored, `-`, `*` and `+` bullets all count, and a section that
 * is missing stays absent (undefined, not an empty list) so re-rendering an
 * old note adds no empty headings. A section repeated by hand is joined, not
 * lost. Never throws.
 */
export function parseBody(body: string): Partial<CheckpointFields> {
  const collected = new Map<Section, string[][]>();
  let current: string[] | null = null;
  for (const line of body.replace(/\r+\n/g, '\n').split('\n')) {
    const h = HEADING.exec(line);
    if (h) {
      const section = BY_HEADING.get(headingKey(h[1] ?? ''));
      current = section ? [] : null;
      if (section) collected.set(section, [...(collected.get(section) ?? []), current as string[]]);
      continue;
    }
    current?.push(line);
  }
  const out: Partial<CheckpointFields> = {};
  for (const [s, chunks] of collected) {
    if (s.prose) {
      const text = chunks
        .map((c) => unescapeProse(normalizeProse(c.join('\n'))))
        .filter((t) => t !== '')
        .join('\n\n');
      if (text) out[s.key as ProseKey] = text;
    } else {
      const items = chunks.flatMap(readItems);
      if (items.length) out[s.key as ListKey] = items;
    }
  }
  return out;
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
  const blank = (s: string | undefined): boolean => !s || s.trim() === '';
  const none = (l: readonly string[] | undefined): boolean => !l || l.every(blank);
  return (
    blank(f.task) &&
    blank(f.state) &&
    blank(f.next) &&
    none(f.decisions) &&
    none(f.failed) &&
    none(f.questions) &&
    none(f.verified) &&
    none(f.blockers)
  );
}
