// The editor's words (hover and CodeLens) are pure functions: what they say,
// and that agent text never lands anywhere it could become markup or a link.
import { strict as assert } from 'assert';
import type { HoverBlock, HoverEntry } from '../../src/core/hoverText';
import { buildHover, escapeMarkdown, HOVER_COMMANDS, hoverPlainText } from '../../src/core/hoverText';
import { lensTitle, lensTooltip, plainLabel, relevantTouches, touchPick } from '../../src/core/lensText';
import type { Touch } from '../../src/core/model';
import { makeCheckpoint } from './builders';

const NOW = Date.UTC(2026, 9, 1, 12, 0, 0) / 1000;

function makeTouch(overrides: Partial<Touch> = {}): Touch {
  const session = overrides.session ?? '20261001-100000-claude';
  const project = overrides.project ?? 'kestrel';
  return {
    session,
    project,
    agent: 'claude',
    task: 'fix checkout crash',
    matched: 'src/checkout.ts',
    ts: NOW - 2 * 3600,
    slug: `sessions/${project}/${session}`,
    ...overrides,
  };
}

function entry(touch: Touch, cp: Parameters<typeof makeCheckpoint>[0] | null = {}, changedSince = false): HoverEntry {
  return { touch, checkpoint: cp === null ? null : makeCheckpoint({ session: touch.session, project: touch.project, ts: touch.ts, ...cp }), changedSince };
}

const texts = (blocks: HoverBlock[]): string[] => blocks.filter((b) => b.kind === 'text').map((b) => b.value);
const markups = (blocks: HoverBlock[]): string =>
  blocks
    .filter((b) => b.kind === 'markup')
    .map((b) => b.value)
    .join('');
const commands = (blocks: HoverBlock[]) => blocks.filter((b): b is Extract<HoverBlock, { kind: 'command' }> => b.kind === 'command');

describe('lensText', () => {
  it('says how many checkpoints, the last task, agent and age', () => {
    const touches = [makeTouch(), makeTouch({ session: 'b', ts: NOW - 86400 }), makeTouch({ session: 'c', ts: NOW - 2 * 86400 })];
    assert.equal(lensTitle(touches, NOW), '3 checkpoints · last: fix checkout crash · claude · 2h ago');
    assert.equal(lensTitle([makeTouch()], NOW), '1 checkpoint · last: fix checkout crash · claude · 2h ago');
    assert.equal(lensTitle([], NOW), '');
    assert.match(lensTooltip(touches), /3 Baton checkpoints/);
  });

  it('falls back to the session id when the checkpoint has no task', () => {
    assert.match(lensTitle([makeTouch({ task: '' })], NOW), /last: 20261001-100000-claude/);
  });

  it('keeps agent text on one line, cut on a character boundary, with icons defused', () => {
    assert.equal(plainLabel('a\nb\t\tc'), 'a b c');
    const cut = plainLabel('é'.repeat(100), 10);
    assert.equal(Array.from(cut).length, 10);
    assert.ok(cut.endsWith('…'));
    assert.ok(!plainLabel('run $(alert) now').includes('$('), 'a $(icon) in agent text must not render as an icon');
    assert.ok(!lensTitle([makeTouch({ task: '$(bug) evil', agent: '$(x)' })], NOW).includes('$('));
  });

  it('shows other projects only when they named more than a bare file name', () => {
    const mine = makeTouch({ project: 'kestrel/wt', matched: 'README.md' });
    const bareElsewhere = makeTouch({ project: 'lighthouse', matched: 'README.md', session: 'x' });
    const pathElsewhere = makeTouch({ project: 'lighthouse', matched: 'docs/README.md', session: 'y' });
    assert.deepEqual(
      relevantTouches([mine, bareElsewhere, pathElsewhere], 'kestrel').map((t) => t.session),
      [mine.session, 'y'],
    );
    assert.equal(relevantTouches([bareElsewhere], undefined).length, 1, 'a loose file (no project) keeps every touch');
  });

  it('names the scope in the pick list only when it is not the current one', () => {
    assert.ok(!touchPick(makeTouch(), NOW, 'kestrel').detail.includes('kestrel ·'));
    assert.match(touchPick(makeTouch({ project: 'lighthouse' }), NOW, 'kestrel').detail, /^lighthouse · /);
    assert.equal(touchPick(makeTouch(), NOW, 'kestrel').description, 'claude · 2h ago');
  });
});

describe('hoverText', () => {
  it('says nothing for a file no checkpoint touched', () => {
    assert.deepEqual(buildHover({ entries: [], total: 0, now: NOW, file: 'file:///x' }), []);
  });

  it('shows task, agent, handoff, age, dead ends, decisions, next and the links', () => {
    const t = makeTouch();
    const blocks = buildHover({
      entries: [
        entry(t, {
          task: 'fix checkout crash',
          handoffTo: 'cursor',
          failed: ['retrying the payment call'],
          decisions: ['zero total for empty carts'],
          next: 'add the refund test',
        }),
      ],
      total: 1,
      now: NOW,
      file: 'file:///ws/src/checkout.ts',
    });
    const plain = hoverPlainText(blocks);
    for (const expected of [
      '1 checkpoint touched this file',
      'fix checkout crash',
      'claude → cursor',
      '2h ago',
      "Didn't work",
      'retrying the payment call',
      'Decided',
      'zero total for empty carts',
      'Next:',
      'add the refund test',
    ]) {
      assert.ok(plain.includes(expected), `hover lacks "${expected}":\n${plain}`);
    }
    assert.deepEqual(
      commands(blocks).map((c) => [c.command, c.args]),
      [
        ['baton.openCheckpoint', [{ slug: t.slug }]],
        ['baton.resume', [{ project: 'kestrel' }]],
      ],
    );
  });

  it('links Resume in Claude Code, by slug only, for a checkpoint bound to a Claude Code session', () => {
    const t = makeTouch({ agent: 'claude-code' });
    const bound = commands(buildHover({ entries: [entry(t, { agent: 'claude-code', extra: { agent_session: 'abc-123', cwd: '/x' } })], total: 1, now: NOW, file: 'f' }));
    assert.deepEqual(bound.find((c) => c.command === 'baton.resumeInClaudeCode')?.args, [{ slug: t.slug }]);
    const unbound = commands(buildHover({ entries: [entry(makeTouch())], total: 1, now: NOW, file: 'f' }));
    assert.ok(!unbound.some((c) => c.command === 'baton.resumeInClaudeCode'));
  });

  it('warns when the file has commits after the checkpoint, and marks auto-closed checkpoints', () => {
    const plain = hoverPlainText(buildHover({ entries: [entry(makeTouch(), { autoClosed: true }, true)], total: 1, now: NOW, file: 'f' }));
    assert.match(plain, /commits after this checkpoint/);
    assert.match(plain, /auto-closed/);
  });

  it('details the newest three, lists the next ones, and links to all when there are more', () => {
    const touches = Array.from({ length: 12 }, (_, i) => makeTouch({ session: `s${i}`, task: `task ${i}`, ts: NOW - i * 3600 }));
    const blocks = buildHover({ entries: touches.slice(0, 10).map((t) => entry(t)), total: 12, now: NOW, file: 'file:///f' });
    const plain = hoverPlainText(blocks);
    assert.match(plain, /12 checkpoints/);
    assert.match(plain, /Earlier:/);
    assert.ok(plain.includes('task 9'));
    assert.ok(!plain.includes('task 10'));
    const all = commands(blocks).find((c) => c.command === 'baton.showFileCheckpoints');
    assert.deepEqual(all?.args, ['file:///f']);
    assert.match(plain, /2 more/);
  });

  it('still shows the index summary when the checkpoint file cannot be read', () => {
    const plain = hoverPlainText(buildHover({ entries: [entry(makeTouch({ task: 'from the index' }), null)], total: 1, now: NOW, file: 'f' }));
    assert.match(plain, /from the index/);
  });

  it('puts agent text only in text blocks and links only to Baton commands', () => {
    const evil = '[run](command:workbench.action.terminal.new) **x** <img src=x onerror=alert(1)>';
    const t = makeTouch({ task: evil, agent: `claude ${evil}`, project: 'kestrel' });
    const blocks = buildHover({
      entries: [entry(t, { task: evil, failed: [evil], decisions: [evil], blockers: [evil], next: evil, handoffTo: 'cursor' })],
      total: 1,
      now: NOW,
      file: 'f',
    });
    assert.ok(!markups(blocks).includes('command:'), 'markup blocks must hold only Baton constants');
    assert.ok(!markups(blocks).includes('<img'), 'markup blocks must hold only Baton constants');
    assert.ok(texts(blocks).filter((v) => v.includes(evil)).length >= 5, 'the agent text is kept, as text');
    for (const c of commands(blocks)) assert.ok((HOVER_COMMANDS as readonly string[]).includes(c.command), c.command);
  });

  it('folds a multi-line field onto one line so it cannot open a markdown block', () => {
    const blocks = buildHover({ entries: [entry(makeTouch(), { next: 'line one\n# not a heading\n- not a bullet' })], total: 1, now: NOW, file: 'f' });
    assert.ok(texts(blocks).includes('line one # not a heading - not a bullet'));
  });
});

describe('escapeMarkdown', () => {
  it('leaves no markdown, link, autolink, entity or HTML syntax unescaped, and keeps spaces for wrapping', () => {
    const evil = '[run](command:workbench.action.terminal.new) <img src=x> **b** `c` &amp; https://x.io # h';
    const out = escapeMarkdown(evil);
    assert.ok(!/(^|[^\\])[[\]()<>*`&:#]/.test(out), out);
    assert.ok(out.includes(' '), 'spaces stay spaces');
    assert.ok(!out.includes('&nbsp;'));
    assert.equal(out.replace(/\\(.)/g, '$1'), evil, 'unescaping gives the text back');
    assert.equal(escapeMarkdown('a\nb'), 'a b');
  });
});
