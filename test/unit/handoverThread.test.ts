// Issue 30, item 4: the hand-over keeps the thread's dead ends. Real vaults in
// temporary folders, written through the core's commit as every door writes,
// read back through the use case every door resumes through (app/resume.ts),
// and printed by the renderers every door prints with; the CLI run once as a
// process (`baton resume`, `baton checkpoint --decided "dropped: …"`).
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { sessionStart } from '../../src/app/agentHooks';
import type { HookPayload } from '../../src/app/editHooks';
import { resume } from '../../src/app/resume';
import { FULL_DEAD_ENDS, START_HANDOVER_CHARS, renderHandover, renderStartHandover } from '../../src/core/handover';
import type { CheckpointFields } from '../../src/core/model';
import { itemKey, threadOf } from '../../src/core/thread';
import { makeCheckpoint } from './builders';
import { cli, ensureBuilt } from './support/cli';
import { tempDir, tempVault, type TempVault } from './support/tempVault';

const HOUR = 3600;
const by = { agent: 'test', via: 'cli', now: 0 };

/** The quoted items under the hand-over's "Didn't work" heading, in the order printed. */
function deadEndsIn(text: string): string[] {
  const start = text.indexOf("\nDidn't work (");
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of text
    .slice(start + 1)
    .split('\n')
    .slice(1)) {
    if (/^ {4}> - /.test(line)) out.push(line.replace(/^ {4}> - /, ''));
    else if (!/^ {2}- .*:$/.test(line) && !/^ {4}> {3}/.test(line)) break;
  }
  return out;
}

/** The label line each printed dead end sits under. */
function labelOf(text: string, item: string): string {
  const lines = text.split('\n');
  const at = lines.indexOf(`    > - ${item}`);
  assert.ok(at > 0, `${item} is listed:\n${text}`);
  for (let i = at; i >= 0; i--) if (/^ {2}- /.test(lines[i])) return lines[i];
  return '';
}

/** A checkpoint file as another writer leaves it (Logos, another clone), with the frontmatter lines given. */
function writeCheckpoint(dir: string, session: string, ts: number, keys: string[], failed: string): void {
  const at = new Date(ts * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const head = ['---', 'type: checkpoint', 'project: kestrel', `agent: ${session.split('-')[2]}`, `session: ${session}`, ...keys, `checkpointed: ${at}`, '---'];
  fs.writeFileSync(path.join(dir, `${session}.md`), [...head, '', "## Didn't work", '', `- ${failed}`, ''].join('\n'));
}

describe('the hand-over keeps the thread: dead ends and decisions across checkpoints', function () {
  this.timeout(120_000);
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  const commit = async (agent: string, fields: Partial<CheckpointFields>, o: { to?: string; extra?: Record<string, unknown> } = {}): Promise<string> => {
    v.advance(HOUR);
    const r = await v.baton.commit({ scope: 'kestrel', agent, fields, handoffTo: o.to, extra: o.extra });
    return r.checkpoint.session;
  };
  const handover = async (): Promise<{ text: string; view: Awaited<ReturnType<typeof resume>> }> => {
    const view = await resume(v.baton, 'kestrel', { ...by, now: v.clock.now() });
    return { text: renderHandover(view, v.clock.now()), view };
  };

  it("after a person's short hand-off, lists what three agent sessions ruled out, newest first, each under the session that did", async () => {
    const claude = await commit('claude', { task: 'checkout flake', failed: ['fake timers alone: the client reads the clock too', 'a bigger retry budget: 429 storms grow'] });
    const codex = await commit('codex', { task: 'checkout flake', failed: ['mocking the gateway: hides the webhook race'], decisions: ['inject the clock into the client'] });
    const gemini = await commit('gemini', { task: 'checkout flake', failed: ['--repeat 50 in CI: times out the job'] });
    const ada = await commit('ada', { next: 'ask gemini about the CI job' }, { to: 'claude' });
    const { text } = await handover();
    assert.match(text, new RegExp(`^Latest checkpoint ${ada} by ada → claude, 0s ago\\.$`, 'm'));
    assert.deepEqual(deadEndsIn(text), [
      '--repeat 50 in CI: times out the job',
      'mocking the gateway: hides the webhook race',
      'fake timers alone: the client reads the clock too',
      'a bigger retry budget: 429 storms grow',
    ]);
    assert.match(text, /\nDidn't work \(4, newest first, by the session that ruled each out\):\n/);
    assert.equal(labelOf(text, '--repeat 50 in CI: times out the job'), `  - gemini, 1h ago, ${gemini}:`);
    assert.equal(labelOf(text, 'mocking the gateway: hides the webhook race'), `  - codex, 2h ago, ${codex}:`);
    assert.equal(labelOf(text, 'a bigger retry budget: 429 storms grow'), `  - claude, 3h ago, ${claude}:`);
    // Decisions likewise, under the session that made each.
    assert.match(
      text,
      new RegExp(`\\nDecisions \\(1, newest first, by the session that made each\\):\\n {2}- codex, 2h ago, ${codex}:\\n {4}> - inject the clock into the client\\n`),
    );
    assert.doesNotMatch(text, /ruled out by an earlier session/);
    // The latest checkpoint's own items are labelled as its own.
    await commit('claude', { failed: ['sleep(100) before the assert: hides it'] });
    assert.equal(labelOf((await handover()).text, 'sleep(100) before the assert: hides it'), '  - claude, 0s ago, the latest checkpoint:');
  });

  it('lists an item once, whitespace and case aside, under the session that ruled it out first, not one that copied it forward', async () => {
    const claude = await commit('claude', { failed: ['Mocking  the gateway:\thides the race'], decisions: ['Integer cents'] });
    await commit('codex', { failed: ['floats for money: 0.1 + 0.2', 'mocking the gateway: hides the race'], decisions: ['integer  cents '] });
    await commit('ada', { next: 'carry on' });
    const { text, view } = await handover();
    assert.deepEqual(deadEndsIn(text), ['floats for money: 0.1 + 0.2', 'Mocking  the gateway: hides the race']);
    assert.equal(labelOf(text, 'Mocking  the gateway: hides the race'), `  - claude, 2h ago, ${claude}:`);
    assert.deepEqual(
      view.thread.deadEnds.map((d) => [d.text, d.times]),
      [
        ['floats for money: 0.1 + 0.2', 1],
        ['Mocking  the gateway: hides the race', 2],
      ],
    );
    assert.deepEqual(
      view.thread.decisions.map((d) => [d.text, d.times, d.session]),
      [['Integer cents', 2, claude]],
    );
    assert.equal(itemKey(' A\u0301  b\n'), itemKey('\u00e1 B'), 'NFC, whitespace runs and case');
  });

  it('drops a dead end a later checkpoint settles: the same item verified, `solved:` or `dropped:` by its approach; a decision ruled out later goes', async () => {
    await commit('claude', {
      failed: ['fake timers alone: the client reads the clock too', 'mocking the gateway: hides the race', 'a bigger retry budget: 429 storms grow', 'kept one'],
      decisions: ['retry 3 times with jitter', 'integer cents'],
    });
    await commit('codex', { verified: ['a bigger retry budget: 429 storms grow'], failed: ['retry 3 times with jitter'] });
    const ada = await commit('ada', {
      verified: ['solved: fake timers alone — the clock is injected now, npm test -- coupon'],
      decisions: ['Dropped: Mocking the gateway', 'dropped: integer cents'],
    });
    const { text, view } = await handover();
    assert.deepEqual(deadEndsIn(text), ['retry 3 times with jitter', 'kept one']);
    assert.deepEqual(view.thread.decisions, [], 'a decision ruled out later, and one dropped, are not carried; a dropped: item is no decision');
    assert.deepEqual(view.thread.settled.map((s) => [s.text, s.settledBy]).sort(), [
      ['a bigger retry budget: 429 storms grow', view.thread.settled.find((s) => s.text.startsWith('a bigger'))?.settledBy],
      ['fake timers alone: the client reads the clock too', ada],
      ['integer cents', ada],
      ['mocking the gateway: hides the race', ada],
      ['retry 3 times with jitter', view.thread.settled.find((s) => s.text.startsWith('retry'))?.settledBy],
    ]);
    // Ruled out again later, it is back.
    await commit('gemini', { failed: ['mocking the gateway: hides the race'] });
    assert.deepEqual(deadEndsIn((await handover()).text), ['mocking the gateway: hides the race', 'retry 3 times with jitter', 'kept one']);
  });

  it('the person removes one with the CLI: baton checkpoint --decided "dropped: …"; baton resume prints the thread and --json carries it', async () => {
    ensureBuilt();
    await commit('claude', { task: 'checkout flake', failed: ['mocking the gateway: hides the race', 'kept one: still fails'] });
    const dropped = await cli(['checkpoint', '--project', 'kestrel', '--agent', 'ada', '--decided', 'dropped: mocking the gateway (the race is fixed upstream)'], {
      vault: v.root,
    });
    assert.equal(dropped.code, 0, dropped.stderr);
    const r = await cli(['resume', 'kestrel'], { vault: v.root });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(deadEndsIn(r.stdout), ['kept one: still fails']);
    assert.match(r.stdout, /\n {2}- claude, \d+[smhd] ago, \d{8}-\d{6}-claude:\n {4}> - kept one: still fails\n/);
    const json = JSON.parse((await cli(['resume', 'kestrel', '--json'], { vault: v.root })).stdout) as { thread: { deadEnds: { text: string }[]; settled: { text: string }[] } };
    assert.deepEqual(
      json.thread.deadEnds.map((d) => d.text),
      ['kept one: still fails'],
    );
    assert.deepEqual(
      json.thread.settled.map((d) => d.text),
      ['mocking the gateway: hides the race'],
    );
  });

  it('a session start within its budget says how many dead ends it left out and where every one is; the next step still fits', async () => {
    const long = (i: number): string => `approach ${i}: ruled out because ${'of a long and specific reason '.repeat(2).trim()}`;
    for (let s = 0; s < 6; s++) await commit(s % 2 ? 'codex' : 'claude', { task: 'checkout flake', failed: Array.from({ length: 10 }, (_, i) => long(s * 10 + i)) });
    // A next step longer than any dead end: it fits only in room kept for it, not in what the dead ends leave.
    const next = `bisect the webhook change ${'between the last green build and the first red one '.repeat(3).trim()}`;
    await commit('ada', { next });
    const view = await resume(v.baton, 'kestrel', { ...by, now: v.clock.now() });
    const text = renderStartHandover(view, v.clock.now(), { budget: START_HANDOVER_CHARS - 600, rest: 'baton resume kestrel' });
    assert.ok(text.length <= START_HANDOVER_CHARS - 600, `${text.length} characters`);
    const shown = deadEndsIn(text);
    assert.ok(shown.length >= 5 && shown.length < 60, `${shown.length} shown`);
    // Newest first: the last session's items, in their own order, before the one before it.
    assert.deepEqual(shown.slice(0, 3), [long(50), long(51), long(52)]);
    assert.ok(text.includes(`\nNext:\n  > ${next}\n`), text);
    assert.match(text, new RegExp(`\\(Left out here: ${60 - shown.length} more dead end\\(s\\)\\. The whole hand-over: baton resume kestrel\\.\\)\\n$`));
    // The hook's session start, as agents receive it, holds to 800 tokens with the same count.
    const work = tempDir('baton-thread-work-');
    try {
      fs.writeFileSync(path.join(work, '.baton-project'), 'kestrel\n');
      const payload = {
        host: 'claude-code',
        cwd: work,
        roots: [],
        edited: [],
        source: 'startup',
        context: { percent: null, messages: null, toCompact: null },
      } as unknown as HookPayload;
      const start = await sessionStart({ vaultRoot: v.root, env: {}, agent: 'claude-code', now: () => v.clock.now(), baton: v.baton }, payload);
      assert.ok(start.length <= START_HANDOVER_CHARS, `${start.length} characters`);
      const n = deadEndsIn(start).length;
      assert.match(start, new RegExp(`\\(Left out here: ${60 - n} more dead end\\(s\\)[^)]*\\. The whole hand-over: Baton's resume tool, or baton resume kestrel\\.\\)`));
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it(`the whole hand-over lists ${FULL_DEAD_ENDS} and counts the older ones; --json's thread holds every one`, async () => {
    for (let s = 0; s < 5; s++) await commit('codex', { failed: Array.from({ length: 10 }, (_, i) => `way ${s}-${i}: no`) });
    const { text, view } = await handover();
    assert.equal(deadEndsIn(text).length, FULL_DEAD_ENDS);
    assert.match(text, new RegExp(`\\n {2}\\(${50 - FULL_DEAD_ENDS} older dead end\\(s\\) not listed here; every one: baton resume kestrel --json\\.\\)\\n`));
    assert.equal(view.thread.deadEnds.length, 50);
  });

  it('reads checkpoints without the new fields (a Logos file, no machine) and names the machine only when the thread has several', async () => {
    const dir = path.join(v.root, 'sessions', 'kestrel');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, '20260814-100000-logos.md'),
      [
        '---',
        'type: checkpoint',
        'title: kestrel — checkout',
        'project: kestrel',
        'agent: logos',
        'session: 20260814-100000-logos',
        'checkpointed: 2026-08-14T10:00:00Z',
        '---',
        '',
        '## Task',
        '',
        'checkout',
        '',
        "## Didn't work",
        '',
        '- the old SDK: no idempotency keys',
        '',
      ].join('\n'),
    );
    await commit('claude', { failed: ['mocking the gateway: hides the race'] });
    let { text } = await handover();
    assert.deepEqual(deadEndsIn(text), ['mocking the gateway: hides the race', 'the old SDK: no idempotency keys']);
    assert.match(labelOf(text, 'the old SDK: no idempotency keys'), /^ {2}- logos, \d+h ago, 20260814-100000-logos:$/);
    // Two machines in the thread (Baton's machine key, as another clone of the vault wrote it): each label says which.
    v.advance(HOUR);
    writeCheckpoint(dir, '20260814-173207-claude', v.clock.now() - 60, ['machine: aaaaaaaa11112222'], 'from machine a: x');
    writeCheckpoint(dir, '20260814-173208-claude', v.clock.now(), ['machine: bbbbbbbb33334444'], 'from machine b: y');
    ({ text } = await handover());
    assert.equal(labelOf(text, 'from machine b: y'), '  - claude (machine bbbbbbbb), 0s ago, the latest checkpoint:');
    assert.equal(labelOf(text, 'from machine a: x'), '  - claude (machine aaaaaaaa), 1m ago, 20260814-173207-claude:');
    assert.match(labelOf(text, 'the old SDK: no idempotency keys'), /^ {2}- logos, /);
  });

  it('a marker names an item by its whole text or its approach, never by a word of it; a checkpoint never settles its own items', () => {
    const older = makeCheckpoint({ session: '20260814-100000-codex', ts: 100, failed: ['fake timers alone: the client reads the clock', 'fake data (too small)', 'other'] });
    const newer = makeCheckpoint({ session: '20260814-110000-ada', ts: 200, decisions: ['solved: fake', 'SOLVED:  Fake Data — seeded now'], failed: ['mine'], verified: ['mine'] });
    const t = threadOf([newer, older]);
    assert.deepEqual(
      t.deadEnds.map((d) => d.text),
      ['mine', 'fake timers alone: the client reads the clock', 'other'],
    );
    assert.deepEqual(
      t.settled.map((d) => d.text),
      ['fake data (too small)'],
    );
    assert.deepEqual(t.decisions, [], 'markers are no decisions');
  });

  it('without a thread (a caller that reads only the latest checkpoint) lists the latest checkpoint’s own, labelled as its own', () => {
    const latest = makeCheckpoint({ failed: ['a: b'] });
    const text = renderHandover({ project: 'kestrel', latest, uncommitted: [], abandoned: [] }, latest.ts + 60);
    assert.equal(labelOf(text, 'a: b'), '  - claude, 1m ago, the latest checkpoint:');
    assert.deepEqual(threadOf([]), { deadEnds: [], decisions: [], settled: [] });
  });
});
