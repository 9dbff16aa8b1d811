// The fast-check pieces the round-trip properties share: text made of the
// pieces that have broken markdown and YAML writers before, mixed with any
// Unicode, and checkpoint fields made of it.
import fc from 'fast-check';
import type { CheckpointFields } from '../../src/core/model';

export const nasty = fc.constantFrom(
  '## Next',
  '## Task',
  '# h1',
  '\\## x',
  '\\',
  '---',
  '...',
  '- item',
  '* item',
  '+ item',
  ': ',
  ' #',
  'key: value',
  'yes',
  'null',
  '~',
  '0123',
  '1e3',
  '"',
  "'",
  '`',
  '[[x]]',
  '{a: b}',
  '<!--',
  '-->',
  '\t',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '\u0085',
  '\u2028',
  '\ufeff',
  '\u0000',
  '\u007f',
  '😀',
  'Кестрел',
  '東京',
  'हिन्दी',
  '&a',
  '*a',
  '!!str',
  '%YAML',
  '@',
  '## State',
  '<!-- ts=1 agent=x -->',
  '\u200f',
  'Recorded during the session:',
  '|',
  '>',
  '? ',
  '&anchor',
  '!!binary',
  '\u202e',
);
export const piece = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }), nasty);

/** Mostly pieces joined; now and then one long string (`long` characters). */
export function textArb(long: { min: number; max: number }, weight = 5): fc.Arbitrary<string> {
  return fc.oneof(
    { weight, arbitrary: fc.array(piece, { maxLength: 12 }).map((p) => p.join('')) },
    { weight: 1, arbitrary: fc.string({ minLength: long.min, maxLength: long.max }) },
  );
}

export function checkpointFields(text: fc.Arbitrary<string>, listMax: number): fc.Arbitrary<CheckpointFields> {
  const list = fc.array(text, { maxLength: listMax });
  return fc.record({
    task: text,
    intent: text,
    state: text,
    decisions: list,
    failed: list,
    verified: list,
    blockers: list,
    commands: list,
    questions: list,
    files: list,
    next: text,
  });
}
