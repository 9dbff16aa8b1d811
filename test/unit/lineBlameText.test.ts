// The words of agent blame in the editor, without VS Code: the current-line
// annotation, the status bar's, the whole-file column, the line hover.
import * as assert from 'assert';
import { annotationText, buildLineHover, gutterText, statusText } from '../../src/core/lineBlameText';
import { hoverPlainText } from '../../src/core/hoverText';
import { rangeAt, lineRanges } from '../../src/core/agentBlame';
import { makeCheckpoint } from './builders';

const NOW = 1_780_000_000;

describe('agent blame text', () => {
  const cp = makeCheckpoint({
    agent: 'claude',
    task: 'cart totals',
    ts: NOW - 2 * 86400,
    failed: ['floats for money'],
    decisions: ['integer cents'],
    next: 'round tax',
    verified: ['totals match — npm test'],
  });

  it('annotates the current line as agent · task · age, one line, controls removed, long tasks cut', () => {
    assert.strictEqual(annotationText(cp, NOW), 'claude · cart totals · 2d ago');
    const long = makeCheckpoint({ task: `fix\u001b[31m the\nthing ${'x'.repeat(80)}`, ts: NOW - 90 });
    const text = annotationText(long, NOW);
    assert.match(text, /^claude · fix the thing x+… · 1m ago$/);
    assert.ok(!text.includes('\u001b') && !text.includes('\n'));
  });

  it('keeps agent text from forming a status bar icon, and pads the gutter column', () => {
    const sneaky = makeCheckpoint({ task: 'run $(alert) now' });
    assert.ok(!statusText(sneaky).slice('$(hubot) '.length).includes('$('), statusText(sneaky));
    assert.strictEqual(Array.from(gutterText(cp)).length, 28);
    assert.ok(gutterText(cp).startsWith('claude · cart totals'));
  });

  it('hovers a line with its checkpoint: task, agent → handoff, dead ends, decisions, verified, next, changed since, links', () => {
    const handed = { ...cp, handoffTo: 'cursor' };
    const blocks = buildLineHover({ checkpoint: handed, start: 4, end: 9, now: NOW, changedSince: true });
    const plain = hoverPlainText(blocks);
    for (const s of [
      'lines 4–9 written in this session',
      'cart totals',
      'claude → cursor',
      '2d ago',
      "Didn't work",
      'floats for money',
      'Decided',
      'integer cents',
      'Verified',
      'Next:',
      'round tax',
      'commits after this checkpoint',
      'Open checkpoint',
      'Resume kestrel',
    ]) {
      assert.ok(plain.includes(s), `lacks "${s}": ${plain}`);
    }
    const hostile = makeCheckpoint({ task: '[run](command:workbench.action.terminal.new)' });
    const b = buildLineHover({ checkpoint: hostile, start: 1, end: 1, now: NOW, changedSince: false });
    assert.ok(
      b.filter((x) => x.kind === 'markup').every((x) => !x.value.includes('command:')),
      'agent text never goes into markup',
    );
    assert.deepStrictEqual(
      b.filter((x) => x.kind === 'command').map((x) => x.kind === 'command' && x.command),
      ['baton.openCheckpoint', 'baton.resume'],
    );
  });

  it("merges consecutive lines of one checkpoint and finds a line's range by bisection", () => {
    const a = makeCheckpoint({ session: '20260101-000000-claude' });
    const b = makeCheckpoint({ session: '20260102-000000-cursor' });
    const owners = new Map([
      ['c1', a],
      ['c2', a],
      ['c3', b],
    ]);
    const ranges = lineRanges(['c0', 'c1', 'c2', 'c1', 'c3', 'c0', 'c1'], owners);
    assert.deepStrictEqual(
      ranges.map((r) => [r.start, r.end, r.checkpoint.session]),
      [
        [2, 4, a.session],
        [5, 5, b.session],
        [7, 7, a.session],
      ],
    );
    assert.deepStrictEqual(
      [1, 2, 4, 5, 6, 7, 8].map((l) => rangeAt(ranges, l)?.start ?? null),
      [null, 2, 2, 5, null, 7, null],
    );
  });
});
