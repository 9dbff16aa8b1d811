import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { BatonError } from '../../src/core/errors';
import { resume } from '../../src/app/resume';
import { renderHandover } from '../../src/core/handover';
import { tempVault, type TempVault } from './support/tempVault';

describe('search: full-text over checkpoints, notes and plans', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  const tasks = async (query: string, extra: Record<string, unknown> = {}): Promise<string[]> => (await v.baton.search({ query, ...extra })).map((h) => h.title);

  it('finds stemming variants on both sides: mock / mocking, cache / cached, test / tests', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'payments', failed: ['mocking the payment gateway hid the bug'] } });
    await v.baton.commit({ scope: 'kestrel', agent: 'codex', fields: { task: 'speed', decisions: ['cached the price table for an hour'] } });
    await v.baton.commit({ scope: 'kestrel', agent: 'cursor', fields: { task: 'coverage', verified: ['the tests pass on CI'] } });
    assert.deepEqual(await tasks('mock'), ['payments']);
    assert.deepEqual(await tasks('Mocks'), ['payments']);
    assert.deepEqual(await tasks('cache'), ['speed']);
    assert.deepEqual(await tasks('caching'), ['speed']);
    assert.deepEqual(await tasks('test'), ['coverage']);
    const [hit] = await v.baton.search({ query: 'mock gateway' });
    assert.equal(hit.field, 'failed');
    assert.equal(hit.kind, 'checkpoint');
    assert.equal(hit.agent, 'claude');
    assert.equal(hit.slug, `sessions/kestrel/${hit.session}`);
    assert.deepEqual(
      hit.marks.map(([a, b]) => hit.snippet.slice(a, b)),
      ['mocking', 'gateway'],
    );
  });

  it('ranks a hit holding every word above one holding one, however often; recency breaks ties', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'retry retry retry retry everywhere' }, at: v.clock.t - 300 });
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'the retry policy' }, at: v.clock.t - 200 });
    await v.baton.commit({ scope: 'other', agent: 'claude', fields: { task: 'old: the policy on retry' }, at: v.clock.t - 500 });
    await v.baton.commit({ scope: 'other', agent: 'claude', fields: { task: 'new: the policy on retry' }, at: v.clock.t - 100 });
    const hits = await v.baton.search({ query: 'retry policy' });
    assert.deepEqual(
      hits
        .map((h) => h.title)
        .slice(0, 3)
        .sort(),
      ['new: the policy on retry', 'old: the policy on retry', 'the retry policy'].sort(),
    );
    assert.equal(hits[3].title, 'retry retry retry retry everywhere');
    assert.equal(hits[3].matched, 1);
    const same = hits.filter((h) => h.title.endsWith('the policy on retry'));
    assert.deepEqual(
      same.map((h) => h.title),
      ['new: the policy on retry', 'old: the policy on retry'],
      'same text: the newer first',
    );
  });

  it('puts every word first even where one rare word scores higher by BM25', async () => {
    for (let i = 0; i < 8; i++) await v.baton.commit({ scope: 'filler', agent: 'claude', fields: { task: `retry number ${i}` } });
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'zebra zebra zebra' } });
    await v.baton.commit({
      scope: 'kestrel',
      agent: 'claude',
      fields: { task: 'retry and zebra', state: 'a much longer text about many other things, going on and on, which makes the row long and its words weigh less' },
    });
    const [first, second] = await v.baton.search({ query: 'retry zebra' });
    assert.equal(first.title, 'retry and zebra');
    assert.equal(second.title, 'zebra zebra zebra');
    assert.ok(second.score > first.score, `BM25 alone would put the rare word first (${second.score} > ${first.score})`);
  });

  it('finds open notes and plans, each with its kind, and filters by kind, agent and time', async () => {
    await v.baton.note('kestrel', 'claude', 'the webhook signature uses the raw body');
    v.advance(60);
    await v.baton.savePlan('kestrel', 'codex', 'Plan: verify every webhook signature before parsing');
    v.advance(60);
    await v.baton.commit({ scope: 'kestrel', agent: 'cursor', fields: { task: 'webhook retries' } });
    const kinds = (await v.baton.search({ query: 'webhook' })).map((h) => h.kind).sort();
    assert.deepEqual(kinds, ['checkpoint', 'note', 'plan']);
    const [note] = await v.baton.search({ query: 'webhook', kind: 'note' });
    assert.equal(note.kind, 'note');
    assert.equal(note.agent, 'claude');
    assert.match(note.session, /^\d{8}-\d{6}-claude$/);
    const [plan] = await v.baton.search({ query: 'signatures', kind: 'plan' });
    assert.equal(plan.agent, 'codex');
    assert.match(plan.slug, /^sessions\/kestrel\/plans\/plan-/);
    assert.deepEqual(
      (await v.baton.search({ query: 'webhook', agent: 'Cursor' })).map((h) => h.kind),
      ['checkpoint'],
    );
    assert.deepEqual(
      (await v.baton.search({ query: 'webhook', since: v.clock.t - 10 })).map((h) => h.kind),
      ['checkpoint'],
    );
  });

  it('a project filter takes in its worktree scopes, and no other project', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'read replica in main' } });
    await v.baton.commit({ scope: 'kestrel/feature-x', agent: 'claude', fields: { task: 'read replica in a worktree' } });
    await v.baton.commit({ scope: 'kestrel-two', agent: 'claude', fields: { task: 'read replica elsewhere' } });
    const hits = await v.baton.search({ query: 'replica', project: 'Kestrel' });
    assert.deepEqual(hits.map((h) => h.project).sort(), ['kestrel', 'kestrel/feature-x']);
    assert.deepEqual(
      (await v.baton.search({ query: 'replica', project: 'kestrel/feature-x' })).map((h) => h.project),
      ['kestrel/feature-x'],
    );
    assert.deepEqual(await v.baton.search({ query: 'replica', project: 'nobody' }), []);
  });

  it('matches non-Latin text whatever its case', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'ПЕРЕПИСАТЬ КЭШ', decisions: ['Größe des Puffers verdoppelt', 'ΣΦΑΛΜΑ στο δίκτυο'] } });
    for (const q of ['кэш', 'Кэш', 'größe', 'GRÖSSE'.toLowerCase() === 'grösse' ? 'größe' : 'größe', 'σφαλμα', 'ΣΦΆΛΜΑ'.normalize('NFD').replace(/\u0301/, '')]) {
      assert.equal((await v.baton.search({ query: q })).length, 1, q);
    }
  });

  it('takes every FTS operator, quote and bracket literally: never an engine error', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'NEAR the OR gate, AND NOT the other one' } });
    for (const q of [
      '"',
      '""',
      "'",
      '(',
      ')',
      '()',
      '*',
      'gate*',
      '-gate',
      'task:gate',
      '^gate',
      'NEAR/2',
      'gate NEAR other',
      'OR',
      'AND',
      'NOT',
      '"gate',
      'gate)',
      '{gate}',
      '[gate]',
      '\\',
      '%',
      '_',
    ]) {
      try {
        await v.baton.search({ query: q });
      } catch (err) {
        assert.ok(err instanceof BatonError && err.kind === 'usage', `${q}: ${String(err)}`);
      }
    }
    assert.equal((await v.baton.search({ query: 'or' })).length, 1, '"or" is a word like any other');
    assert.equal((await v.baton.search({ query: '(gate' })).length, 1);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.boolean(), async (q, deadEnds) => {
        try {
          if (deadEnds) await v.baton.beforeYouTry(q);
          else await v.baton.search({ query: q });
        } catch (err) {
          assert.ok(err instanceof BatonError && err.kind === 'usage', `${JSON.stringify(q)}: ${String(err)}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds a hand-edited checkpoint by its new words, and not by its old ones', async () => {
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'first words: pelican' } });
    assert.equal((await v.baton.search({ query: 'pelican' })).length, 1);
    // Saved as editors that write a new file and rename it over the old one do
    // (the folder's mtime moves; see src/adapters/index/README.md).
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.dirname(r.path), old, old);
    await v.baton.search({ query: 'pelican' });
    const text = fs.readFileSync(r.path, 'utf8').replaceAll('pelican', 'albatross and more');
    fs.writeFileSync(`${r.path}.tmp`, text);
    fs.renameSync(`${r.path}.tmp`, r.path);
    assert.deepEqual(await v.baton.search({ query: 'pelican' }), []);
    assert.equal((await v.baton.search({ query: 'albatross' })).length, 1);
  });

  it('rebuilds a deleted .baton/ and finds everything again', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'heron migration' } });
    await v.baton.note('kestrel', 'codex', 'heron note');
    await v.baton.savePlan('kestrel', 'codex', 'heron plan');
    assert.equal((await v.baton.search({ query: 'heron' })).length, 3);
    fs.rmSync(path.join(v.root, '.baton'), { recursive: true, force: true });
    assert.equal((await v.baton.search({ query: 'heron' })).length, 3);
  });

  it('never finds a secret: it is masked before it reaches the disk', async () => {
    const key = 'sk-live-51HqLyjWDarjtT1zdp7dcXYZabc123456789';
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: `rotated the key ${key}` } });
    await v.baton.note('kestrel', 'claude', `token=ghp_abcdefghijklmnopqrstuvwxyz0123456789`);
    assert.deepEqual(await v.baton.search({ query: key }), []);
    assert.deepEqual(await v.baton.search({ query: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' }), []);
    assert.equal((await v.baton.search({ query: 'rotated' })).length, 1);
  });

  it('refuses a request it cannot run, saying what to give', async () => {
    await assert.rejects(v.baton.search({ query: '!!!' }), /Give a few words/);
    await assert.rejects(v.baton.search({ query: 'x', kind: 'decision' }), /checkpoint, note, plan/);
    await assert.rejects(v.baton.search({ query: 'x', since: 'yesterday' }), /is not a time/);
    await assert.rejects(v.baton.search({ query: 'x', limit: 0 }), /limit must be/);
  });
});

describe('before_you_try on the search engine', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  it('finds a dead end in another tense, best first, with who ruled it out, when and where; one shared word is not enough', async () => {
    await v.baton.commit({
      scope: 'kestrel',
      agent: 'claude',
      fields: { task: 'a', failed: ['mocking the payment gateway hid the bug', 'a read replica lagged'] },
      at: v.clock.t - 100,
    });
    await v.baton.commit({ scope: 'kestrel/wt', agent: 'codex', fields: { task: 'b', failed: ['the gateway mocks were stale'] } });
    await v.baton.commit({ scope: 'heron', agent: 'cursor', fields: { task: 'c', failed: ['payment retries doubled charges'] } });
    const found = await v.baton.beforeYouTry('mock the payment gateway');
    assert.deepEqual(
      found.map((d) => [d.text, d.agent, d.project]),
      [
        ['mocking the payment gateway hid the bug', 'claude', 'kestrel'],
        ['the gateway mocks were stale', 'codex', 'kestrel/wt'],
      ],
    );
    assert.equal(found[0].slug, `sessions/kestrel/${found[0].session}`);
    assert.equal(found[0].ts, v.clock.t - 100);
    assert.deepEqual(
      (await v.baton.beforeYouTry('mock the payment gateway', 'heron')).map((d) => d.text),
      [],
    );
    assert.deepEqual(
      (await v.baton.beforeYouTry('replicas')).map((d) => d.text),
      ['a read replica lagged'],
    );
    // Words found only in other fields are no dead end.
    assert.deepEqual(await v.baton.beforeYouTry('task'), []);
  });
});

describe('the hand-over adds matching dead ends of other projects, labelled', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  it('shows the few that share most of the task’s words, never the project’s own, under their own heading', async () => {
    await v.baton.commit({ scope: 'heron', agent: 'codex', fields: { task: 'x', failed: ['mocking the payment gateway in unit tests hid a race'] } });
    await v.baton.commit({ scope: 'heron', agent: 'codex', fields: { task: 'y', failed: ['the gateway was down'] } });
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'mock the payment gateway for the unit tests', failed: ['mocked payment gateway: stale'] } });
    const view = await resume(v.baton, 'kestrel', { agent: 'claude', via: 'mcp', now: v.clock.t, elsewhere: true });
    assert.deepEqual(
      view.elsewhere?.map((d) => [d.project, d.text]),
      [['heron', 'mocking the payment gateway in unit tests hid a race']],
    );
    const text = renderHandover(view, v.clock.t);
    assert.match(
      text,
      /\nDead ends recorded in other projects that share words with this task \(1; matched by words, they may not apply here\):\n {2}- ruled out by codex on \d{4}-\d{2}-\d{2} in heron \(sessions\/heron\/[\d-]+codex\):\n {4}> mocking the payment gateway in unit tests hid a race\n$/,
    );
    const none = await resume(v.baton, 'heron', { agent: 'codex', via: 'mcp', now: v.clock.t, elsewhere: true });
    assert.deepEqual(none.elsewhere, [], 'y: "the gateway was down" shares too little with "y"');
  });

  it('is not asked by a one-shot process (baton resume, a hook at session start), which would load the whole index for it', async () => {
    await v.baton.commit({ scope: 'heron', agent: 'codex', fields: { task: 'x', failed: ['mocking the payment gateway in unit tests hid a race'] } });
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'mock the payment gateway for the unit tests' } });
    const view = await resume(v.baton, 'kestrel', { agent: 'claude', via: 'hook', now: v.clock.t });
    assert.deepEqual(view.elsewhere, []);
    assert.doesNotMatch(renderHandover(view, v.clock.t), /other projects/);
  });
});
