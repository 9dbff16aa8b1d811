// Checkpoint files broken on purpose, for the tests that pin the fast readers
// (src/adapters/markdown/fastReader.ts) to the real parser.
import { rng } from '../../../bench/generate';

// Lines that break YAML, or change what it means, dropped into a frontmatter.
export const JUNK = [
  ': : :',
  '  - [',
  'key: "unterminated',
  '# a comment',
  'touched: [a.ts, b.ts]',
  'touched: one.ts',
  'touched:',
  'agent: ~',
  'agent:',
  'agent: 123',
  "agent: 'it''s'",
  'agent: "tab\\there"',
  'agent: "\\x41"',
  'checkpointed: 1755181927',
  'checkpointed: "2026-08-14"',
  'checkpointed: 2026-08-14 14:32:07',
  'checkpointed: null',
  'first_seen: 2026-13-45',
  'title: a: b',
  'title: a #b',
  'title: -x',
  'title: x:',
  '---',
  '...',
  '  continued plain scalar',
  '    - nested',
  '\ttabbed: x',
  'k: v ',
  'k:  v',
  '<<: *a',
  '&a k: v',
  'k: !!str x',
  'k: |',
  'k: >',
  'agent: claude',
  'touched:\n  - dup.ts',
  '__proto__: x',
  'relations: x',
  '  - { pred: follows, obj: "[[x]]", conf: 1.0, src: stated }',
  'k: "\u2028"',
  'k: \u0085',
  'k: 😀',
  'k: a\u00a0b',
  'k: {a: b}',
  'k: [1, 2]',
  '- top',
  '? complex',
  'k: "a" # c',
  "k: 'a' b",
];

export function mangle(text: string, seed: number): string {
  const r = rng(seed);
  const lines = text.split('\n');
  const close = lines.indexOf('---', 1);
  const edits = 1 + Math.floor(r() * 3);
  for (let e = 0; e < edits; e++) {
    const at = 1 + Math.floor(r() * Math.max(1, close > 0 ? close - 1 : lines.length - 1));
    const k = r();
    if (k < 0.45) lines.splice(at, 0, ...JUNK[Math.floor(r() * JUNK.length)].split('\n'));
    else if (k < 0.6) lines.splice(at, 1);
    else if (k < 0.7) lines.splice(at, 0, lines[at] ?? '');
    else if (k < 0.8) lines[at] = ` ${lines[at] ?? ''}`;
    else if (k < 0.9) lines[at] = (lines[at] ?? '').replace(/"/g, "'");
    else lines[at] = `${lines[at] ?? ''} `;
  }
  let out = lines.join('\n');
  const w = r();
  if (w < 0.05) out = `\ufeff${out}`;
  else if (w < 0.1) out = out.replace(/\n/g, '\r\n');
  else if (w < 0.15) out = out.slice(0, Math.floor(r() * out.length));
  return out;
}
