import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { load } from 'js-yaml';
import { isCheckpointFileName, parseCheckpoint, parsePlan, renderCheckpoint, renderPlan } from '../../src/adapters/markdown/checkpointFile';
import { notesHeader, parseNotes, renderNoteLine } from '../../src/adapters/markdown/notesFile';
import type { Checkpoint } from '../../src/core/model';
import { makeCheckpoint, makeGit } from './builders';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'logos', '20260814-143207-claude.md');
const frontmatterOf = (text: string): string => text.split('\n---\n')[0].slice(4);
const keysOf = (text: string): string[] =>
  frontmatterOf(text)
    .split('\n')
    .filter((l) => /^[A-Za-z_']/.test(l))
    .map((l) => l.slice(0, l.indexOf(':')));
const yamlOf = (text: string): Record<string, unknown> => load(frontmatterOf(text)) as Record<string, unknown>;
const reread = (cp: Checkpoint, scope = cp.project): Checkpoint => parseCheckpoint(renderCheckpoint(cp), cp.session, scope);

describe('isCheckpointFileName', () => {
  it('takes only <8 digits>-….md', () => {
    for (const n of ['20260814-143207-claude.md', '20260814-143207-claude-code.md', '12345678-.md']) assert.ok(isCheckpointFileName(n), n);
    for (const n of [
      'uncommitted.md',
      'plan-20260814-141500-claude.md',
      'zz-notes.md',
      '.20260814-143207-claude.md.tmp',
      '20260814-143207-claude.md.tmp-123',
      '2026081-143207-claude.md',
      '20260814_143207-claude.md',
      '20260814-143207-claude.txt',
      '２０２６０８１４-x.md',
    ]) {
      assert.equal(isCheckpointFileName(n), false, n);
    }
  });
});

describe('a checkpoint written by Logos', () => {
  const text = fs.readFileSync(FIXTURE, 'utf8');
  const expected: Checkpoint = {
    session: '20260814-143207-claude',
    project: 'kestrel',
    agent: 'claude',
    handoffTo: 'cursor',
    autoClosed: false,
    git: {
      branch: 'feature/annual-toggle',
      commit: 'a1b2c3d',
      subject: 'feat: annual toggle behind a flag',
      dirty: 3,
      unreadable: false,
      files: ['src/components/PricingTable.tsx', 'src/lib/price.ts', 'package.json'],
      worktree: '/home/ana/src/kestrel-annual',
    },
    ts: Date.UTC(2026, 7, 14, 12, 32, 7) / 1000,
    follows: '20260814-101500-claude',
    extra: {},
    slug: 'sessions/kestrel/20260814-143207-claude',
    task: 'Add the annual billing toggle to PricingTable',
    intent: 'Customers on the sales calls keep asking for yearly billing; the toggle unblocks the launch.',
    state: 'The toggle renders and switches the displayed prices. Price math lives in src/lib/price.ts.\nThe component test cannot run yet.',
    decisions: ['keep the billing period in PricingTable state: it is the only reader', 'annual price = 10 × monthly, rounded to whole euros'],
    failed: ['a global zustand store for the period: too much machinery for one flag', 'CSS-only toggle: cannot change the numbers'],
    verified: ['annualPrice(9) is 90 — npm test -- price'],
    blockers: ['vitest needs jsdom for the PricingTable test; it is not installed'],
    commands: ['npm test -- price', 'npx vitest run src/components'],
    questions: ['should the toggle remember the choice across visits?'],
    files: ['src/components/PricingTable.tsx', 'src/lib/price.ts'],
    next: 'Install jsdom, then run the PricingTable component test.',
  };

  it('reads back whole, every field', () => {
    assert.deepEqual(parseCheckpoint(text, '20260814-143207-claude', 'kestrel'), expected);
  });

  it('survives a Baton re-render unchanged, with the same keys in the same order', () => {
    const again = renderCheckpoint(expected);
    assert.deepEqual(parseCheckpoint(again, expected.session, 'kestrel'), expected);
    assert.deepEqual(keysOf(again), keysOf(text));
  });
});

describe('renderCheckpoint', () => {
  const full = makeCheckpoint({
    handoffTo: 'cursor',
    autoClosed: true,
    git: makeGit({ branch: 'main', commit: 'abc1234', subject: 'wip', dirty: 2, unreadable: true, files: ['a.ts'], worktree: '/w' }),
    follows: '20260814-120000-claude',
    extra: { agent_session: 'c0ffee-42', folded: ['20260814-120000-cursor'] },
    task: 'task',
    next: 'next',
  });

  it('writes the keys in the contract order, then Baton keys', () => {
    assert.deepEqual(keysOf(renderCheckpoint(full)), [
      'type',
      'title',
      'project',
      'agent',
      'session',
      'handoff_to',
      'auto_closed',
      'branch',
      'commit',
      'commit_subject',
      'uncommitted',
      'uncommitted_unreadable',
      'worktree',
      'touched',
      'relations',
      'first_seen',
      'checkpointed',
      'agent_session',
      'folded',
    ]);
  });

  it('writes a key only when it has a value', () => {
    const text = renderCheckpoint(makeCheckpoint({ task: 't' }));
    assert.deepEqual(keysOf(text), ['type', 'title', 'project', 'agent', 'session', 'relations', 'first_seen', 'checkpointed']);
    assert.ok(!renderCheckpoint(makeCheckpoint({ git: makeGit({ dirty: 0 }) })).includes('uncommitted'));
  });

  it('writes relations as flow maps, follows only when there is one', () => {
    const text = renderCheckpoint(makeCheckpoint({ project: 'kestrel/wt', follows: '20260814-120000-claude' }));
    assert.ok(text.includes('relations:\n  - { pred: checkpoint_of, obj: "[[kestrel]]", conf: 1.0, src: stated }\n'));
    assert.ok(text.includes('  - { pred: follows, obj: "[[20260814-120000-claude]]", conf: 1.0, src: stated }\n'));
    assert.ok(!renderCheckpoint(makeCheckpoint({})).includes('follows'));
  });

  it('writes the times as a day and RFC 3339', () => {
    const text = renderCheckpoint(makeCheckpoint({}));
    assert.ok(text.includes('\nfirst_seen: 2026-08-14\ncheckpointed: 2026-08-14T14:32:07Z\n'));
  });

  it('titles by task, else next, else "checkpoint", one line', () => {
    assert.equal(yamlOf(renderCheckpoint(makeCheckpoint({ task: 'fix: a\nb', next: 'n' }))).title, 'kestrel — fix: a b');
    assert.equal(yamlOf(renderCheckpoint(makeCheckpoint({ next: 'go on' }))).title, 'kestrel — go on');
    assert.equal(yamlOf(renderCheckpoint(makeCheckpoint({ decisions: ['d'] }))).title, 'kestrel — checkpoint');
  });

  it('cuts a long title to 70 characters + … on a character boundary', () => {
    const task = '😀'.repeat(69) + 'ab' + 'c'.repeat(10);
    const t = yamlOf(renderCheckpoint(makeCheckpoint({ task }))).title as string;
    assert.equal(t, `kestrel — ${'😀'.repeat(69)}a…`);
    assert.equal(yamlOf(renderCheckpoint(makeCheckpoint({ task: 'x'.repeat(70) }))).title, `kestrel — ${'x'.repeat(70)}`);
  });

  it('ends with a single newline, with or without a body', () => {
    for (const cp of [full, makeCheckpoint({})]) {
      const text = renderCheckpoint(cp);
      assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'), JSON.stringify(text.slice(-20)));
    }
    assert.ok(renderCheckpoint(full).includes('---\n\n## Task\n\ntask\n'));
  });

  it('quotes whatever YAML would misread, and js-yaml reads every string back', () => {
    const tricky = [
      'yes',
      'no',
      'on',
      'off',
      'y',
      'n',
      'true',
      'False',
      'null',
      '~',
      '0123456',
      '1234567',
      '1e10',
      '0x1F',
      '.inf',
      '-.5',
      '2026-08-14',
      '12:30',
      ' lead',
      'trail ',
      'a: b',
      'x #y',
      '#c',
      '- b',
      '-',
      '"q"',
      "it's",
      '[a]',
      '{a}',
      '&a',
      '*a',
      '!t',
      '|',
      '>',
      '%x',
      '@x',
      '`x',
      '?',
      ':',
      'a:',
      'line\nbreak',
      'tab\there',
      'nel\u0085x',
      'del\u007f',
      'bom\ufeff',
      'ls\u2028x',
      'emoji 🚀',
      'Кестрел',
      '東京',
      'back\\slash',
      '<<',
      '=',
      '---',
      '...',
      'a\u0000b',
    ];
    for (const s of tricky) {
      const cp = makeCheckpoint({
        handoffTo: s,
        git: makeGit({ branch: s, commit: s, subject: s, worktree: s, files: [s, 'ok'] }),
      });
      const y = yamlOf(renderCheckpoint(cp));
      for (const key of ['handoff_to', 'branch', 'commit', 'commit_subject', 'worktree']) assert.equal(y[key], s, `${key} ${JSON.stringify(s)}`);
      assert.deepEqual(y.touched, [s, 'ok']);
      const back = reread(cp);
      assert.equal(back.git.subject, s);
      assert.equal(back.handoffTo, s);
    }
  });

  it('quotes, for YAML 1.1 readers too (Go, Obsidian), what js-yaml alone would read as a string', () => {
    for (const s of ['y', 'n', 'Yes', 'off', '0123456', '1234567', '2026-08-14', '1_000', '~', 'null', '#c', '- b', '@x', '`x', '<<', '=']) {
      const text = renderCheckpoint(makeCheckpoint({ git: makeGit({ commit: s }) }));
      assert.ok(text.includes(`\ncommit: ${JSON.stringify(s)}\n`), s);
    }
    const plain = renderCheckpoint(makeCheckpoint({ git: makeGit({ commit: 'a1b2c3d', branch: 'feature/x-1', worktree: '/home/ana/src/k' }) }));
    assert.ok(plain.includes('\nbranch: feature/x-1\ncommit: a1b2c3d\nworktree: /home/ana/src/k\n'));
  });

  it('keeps Baton keys and unknown keys through a round trip, but never duplicates a known key', () => {
    const extra = { agent_session: '0a1b', capture: { tool: 'claude', turns: 3 }, folded: ['x', 'y'], weird: 'a: b\n---\nc', title: 'forged' };
    const text = renderCheckpoint(makeCheckpoint({ extra }));
    assert.equal(text.match(/^title:/gm)?.length, 1);
    const back = parseCheckpoint(text, '20260814-143207-claude', 'kestrel');
    assert.deepEqual(back.extra, { agent_session: '0a1b', capture: { tool: 'claude', turns: 3 }, folded: ['x', 'y'], weird: 'a: b\n---\nc' });
  });
});

describe('parseCheckpoint', () => {
  it('round-trips a full checkpoint', () => {
    const cp = makeCheckpoint({
      project: 'kestrel/wt',
      handoffTo: 'cursor',
      autoClosed: true,
      git: makeGit({ branch: 'main', commit: '0123456', subject: 'fix: x', dirty: 4, unreadable: true, files: ['a', 'b'], worktree: '/w' }),
      follows: '20260814-120000-claude',
      extra: { agent_session: 's-1' },
      task: 'fix: colon in task',
      state: 'closed automatically — no activity for 9h',
      decisions: ['a'],
      next: 'n',
    });
    assert.deepEqual(reread(cp), cp);
  });

  it('takes the session from the file name, the project from the scope when missing', () => {
    const text = '---\ntype: checkpoint\nsession: something-else\n---\n\n## Task\n\nt\n';
    const cp = parseCheckpoint(text, '20260101-000000-cursor', 'kestrel/wt');
    assert.equal(cp.session, '20260101-000000-cursor');
    assert.equal(cp.project, 'kestrel/wt');
    assert.equal(cp.agent, 'cursor');
    assert.equal(cp.slug, 'sessions/kestrel/wt/20260101-000000-cursor');
    assert.equal(cp.task, 't');
  });

  it('dates by checkpointed, else first_seen, else 0', () => {
    assert.equal(parseCheckpoint('---\nfirst_seen: 2026-08-14\n---\n', 'x', 'k').ts, Date.UTC(2026, 7, 14) / 1000);
    assert.equal(parseCheckpoint('---\ncheckpointed: 2026-08-14T00:00:05-01:00\nfirst_seen: 2020-01-01\n---\n', 'x', 'k').ts, Date.UTC(2026, 7, 14, 1, 0, 5) / 1000);
    assert.equal(parseCheckpoint('---\ncheckpointed: someday\n---\n', 'x', 'k').ts, 0);
  });

  it('reads bad YAML as empty frontmatter but still reads the body', () => {
    const cp = parseCheckpoint('---\nproject: [unclosed\nagent: : :\n---\n\n## Task\n\nstill here\n', '20260814-143207-claude', 'kestrel');
    assert.equal(cp.task, 'still here');
    assert.equal(cp.project, 'kestrel');
    assert.equal(cp.ts, 0);
  });

  it('takes as frontmatter only what lies between the first two --- lines', () => {
    const cp = parseCheckpoint('---\nproject: kestrel\n---\n\n## State\n\n---\nproject: forged\n---\n', 'x', 'k');
    assert.equal(cp.project, 'kestrel');
    assert.equal(cp.state, '---\nproject: forged\n---');
  });

  it('never throws: empty, binary junk, every prefix of a torn file, odd YAML', () => {
    const whole = renderCheckpoint(makeCheckpoint({ task: 'a', decisions: ['b'], extra: { k: [1, { x: 2 }] } }));
    const inputs = [
      '',
      '---',
      '---\n',
      '---\n---',
      '\u0000\u0001\u0002\ufffd',
      '---\n- a list\n---\n',
      '---\n"just a string"\n---\n',
      '---\n&a [*a]\n---\n',
      '---\n__proto__: {polluted: 1}\n---\n',
      '---\n' + '['.repeat(10000) + '\n---\n',
      Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256)).toString('latin1'),
      ...Array.from({ length: whole.length + 1 }, (_, i) => whole.slice(0, i)),
    ];
    for (const text of inputs) {
      const cp = parseCheckpoint(text, '20260814-143207-claude', 'kestrel');
      assert.equal(cp.session, '20260814-143207-claude');
      assert.ok(Array.isArray(cp.decisions) && Array.isArray(cp.git.files));
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('reads a file it wrote to disk', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-cpfile-'));
    try {
      const cp = makeCheckpoint({ task: 'Кестрел 東京 हिन्दी 🚀', files: ['src/a b.ts'] });
      const file = path.join(dir, `${cp.session}.md`);
      fs.writeFileSync(file, renderCheckpoint(cp));
      assert.deepEqual(parseCheckpoint(fs.readFileSync(file, 'utf8'), cp.session, 'kestrel'), cp);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('plans', () => {
  const plan = { project: 'kestrel', agent: 'claude', ts: Date.UTC(2026, 7, 14, 14, 15) / 1000, text: '1. add toggle\n2. test it\n\n---\n## not a heading' };

  it('writes the contract frontmatter', () => {
    const text = renderPlan(plan);
    assert.ok(text.startsWith('---\ntype: plan\ntitle: '));
    const y = yamlOf(text);
    assert.equal(y.title, 'kestrel — 1. add toggle 2. test it --- ## not a heading');
    assert.deepEqual(y.relations, [{ pred: 'plan_of', obj: '[[kestrel]]', conf: 1, src: 'stated' }]);
    assert.equal(y.first_seen, '2026-08-14');
    assert.equal(y.planned, '2026-08-14T14:15:00Z');
    assert.ok(text.endsWith('## not a heading\n'));
  });

  it('reads back', () => {
    assert.deepEqual(parsePlan(renderPlan(plan), 'plan-20260814-141500-claude', 'kestrel'), {
      slug: 'sessions/kestrel/plans/plan-20260814-141500-claude',
      project: 'kestrel',
      agent: 'claude',
      ts: plan.ts,
      title: 'kestrel — 1. add toggle 2. test it --- ## not a heading',
      text: plan.text,
    });
  });

  it('cuts the title to the first 70 characters of the plan', () => {
    const title = yamlOf(renderPlan({ ...plan, text: 'p'.repeat(100) })).title;
    assert.equal(title, `kestrel — ${'p'.repeat(70)}…`);
  });

  it('never throws', () => {
    for (const t of ['', '---', '\u0000', '---\n: :\n---\nbody']) assert.doesNotThrow(() => parsePlan(t, 'plan-x', 'k'));
    assert.equal(parsePlan('---\n: :\n---\nbody', 'plan-20260814-141500-claude', 'k').agent, 'claude');
  });
});

describe('working notes', () => {
  it('writes one line per note in the contract shape', () => {
    assert.equal(
      renderNoteLine({ text: 'the annual toggle\nbelongs in\tPricingTable', agent: 'claude', ts: 1755181927 }),
      '- the annual toggle belongs in PricingTable <!-- ts=1755181927 agent=claude -->\n',
    );
  });

  it('writes the header', () => {
    assert.equal(notesHeader('kestrel'), '# uncommitted — kestrel\n\nWorking notes from sessions that have not been checkpointed yet.\n\n');
  });

  it('reads the contract example', () => {
    const text =
      notesHeader('kestrel') +
      '- the annual toggle belongs in PricingTable <!-- ts=1755181927 agent=claude -->\n' +
      '- vitest needs jsdom for the PricingTable test <!-- ts=1755182001 agent=cursor -->\n';
    assert.deepEqual(parseNotes(text), [
      { text: 'the annual toggle belongs in PricingTable', agent: 'claude', ts: 1755181927 },
      { text: 'vitest needs jsdom for the PricingTable test', agent: 'cursor', ts: 1755182001 },
    ]);
  });

  it('keeps a note that itself contains <!-- and --> exact, and the line previews safely', () => {
    for (const text of ['see <!-- ts=1 agent=x --> here', 'a <\\!-- b', '<!--', '-->', 'x <!-- ts=5 agent=y -->']) {
      const line = renderNoteLine({ text, agent: 'claude', ts: 7 });
      assert.equal((line.match(/<!--/g) ?? []).length, 1, line);
      assert.deepEqual(parseNotes(line), [{ text, agent: 'claude', ts: 7 }]);
    }
  });

  it('ignores lines that do not match, and a torn last line loses nothing before it', () => {
    const good = renderNoteLine({ text: 'one', agent: 'a', ts: 1 }) + renderNoteLine({ text: 'two', agent: 'b', ts: 2 });
    const torn = good + '- three <!-- ts=3 age';
    assert.deepEqual(
      parseNotes(torn).map((n) => n.text),
      ['one', 'two'],
    );
    assert.deepEqual(
      parseNotes('junk\n\u0000\n' + good.replace(/\n/g, '\r\n')).map((n) => n.text),
      ['one', 'two'],
    );
  });

  it('reads a hand-written note with a bare CR or a line separator inside it, on one line', () => {
    const text = '- tried a\rreplica <!-- ts=3 agent=a -->\n- then b\u2028c\u2029d <!-- ts=4 agent=a -->\n- e\u0085f <!-- ts=5 agent=a -->\n';
    assert.deepEqual(
      parseNotes(text).map((n) => n.text),
      ['tried a replica', 'then b c d', 'e f'],
    );
  });

  it('writes the agent as a safe name and a whole, non-negative ts', () => {
    assert.equal(renderNoteLine({ text: 't', agent: 'Claude Code', ts: 12.9 }), '- t <!-- ts=12 agent=claude-code -->\n');
    assert.equal(renderNoteLine({ text: 't', agent: 'a', ts: Number.NaN }), '- t <!-- ts=0 agent=a -->\n');
  });
});
