import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { BatonError } from '../../src/core/errors';
import { stamp } from '../../src/core/time';
import { tempVault, type TempVault } from './support/tempVault';

describe('working notes and commit', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  it('appends notes in order, one line each, with a header on first use', async () => {
    await v.baton.note('Kestrel', 'claude', 'the annual toggle belongs in PricingTable');
    v.advance(5);
    await v.baton.note('kestrel', 'cursor', 'vitest needs\njsdom\tfor the test');
    const text = v.read('sessions/kestrel/uncommitted.md');
    assert.match(text, /^# uncommitted — kestrel\n\nWorking notes from sessions that have not been checkpointed yet\.\n\n/);
    const lines = text.split('\n').filter((l) => l.startsWith('- '));
    // The origin after ts and agent: this clone's machine id (.baton-live/machine-id).
    const machine = await v.baton.machine();
    assert.match(machine, /^[0-9a-f]{16}$/);
    assert.deepEqual(lines, [
      `- the annual toggle belongs in PricingTable <!-- machine=${machine} --> <!-- ts=${v.clock.t - 5} agent=claude -->`,
      `- vitest needs jsdom for the test <!-- machine=${machine} --> <!-- ts=${v.clock.t} agent=cursor -->`,
    ]);
    const view = await v.baton.sessions('kestrel');
    assert.deepEqual(
      view.uncommitted.map((n) => [n.agent, n.text]),
      [
        ['claude', 'the annual toggle belongs in PricingTable'],
        ['cursor', 'vitest needs jsdom for the test'],
      ],
    );
  });

  it('refuses an empty note with a usage error', async () => {
    await assert.rejects(v.baton.note('kestrel', 'claude', '   '), (e: BatonError) => e.kind === 'usage');
  });

  it('folds the agent notes into State, closes the session and deletes the notes file', async () => {
    await v.baton.note('kestrel', 'claude', 'tried stripe mock');
    v.advance(60);
    await v.baton.note('kestrel', 'claude', 'mock cannot replay webhooks');
    v.advance(60);
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'fix checkout', state: 'halfway' } });
    assert.equal(r.folded, 2);
    assert.equal(r.checkpoint.state, 'halfway\n\nRecorded during the session:\n- tried stripe mock\n- mock cannot replay webhooks');
    assert.equal(v.exists('sessions/kestrel/uncommitted.md'), false);
    const [latest] = await v.baton.history('kestrel');
    assert.equal(latest.state, r.checkpoint.state);
    assert.equal(latest.task, 'fix checkout');
    assert.deepEqual((await v.baton.sessions('kestrel')).uncommitted, []);
  });

  it("keeps a parallel agent's fresh notes and folds one silent past 30 minutes, attributed", async () => {
    await v.baton.note('kestrel', 'cursor', 'old cursor note');
    v.advance(31 * 60);
    await v.baton.note('kestrel', 'codex', 'codex still working');
    await v.baton.note('kestrel', 'claude', 'claude note');
    v.advance(60);
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 't' } });
    assert.equal(r.checkpoint.state, 'Recorded during the session:\n- (cursor) old cursor note\n- claude note');
    const left = (await v.baton.sessions('kestrel')).uncommitted;
    assert.deepEqual(
      left.map((n) => n.text),
      ['codex still working'],
    );
  });

  it('refuses an empty checkpoint and writes nothing', async () => {
    await assert.rejects(
      v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { commands: ['npm test'], files: ['a.ts'] } }),
      (e: BatonError) => e.kind === 'refused' && /Nothing to checkpoint/.test(e.message),
    );
    assert.deepEqual(v.list('sessions/kestrel'), []);
  });

  it('links each checkpoint to the previous one in its scope (follows)', async () => {
    const first = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'one' } });
    v.advance(10);
    const second = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'two' } });
    assert.equal(first.checkpoint.follows, '');
    assert.equal(second.checkpoint.follows, first.checkpoint.session);
    const text = fs.readFileSync(second.path, 'utf8');
    assert.match(text, new RegExp(`pred: follows, obj: "\\[\\[${first.checkpoint.session}\\]\\]"`));
    assert.match(text, /pred: checkpoint_of, obj: "\[\[kestrel\]\]"/);
  });

  it('keeps two checkpoints and two plans written in the same second', async () => {
    const a = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'a' } });
    const b = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'b' } });
    assert.notEqual(a.checkpoint.session, b.checkpoint.session);
    assert.equal(a.checkpoint.session, `${stamp(v.clock.t)}-claude`);
    assert.equal(b.checkpoint.session, `${stamp(v.clock.t + 1)}-claude`, 'the stamp steps forward one second');
    const tasks = (await v.baton.history('kestrel')).map((c) => c.task).sort();
    assert.deepEqual(tasks, ['a', 'b']);
    for (const c of await v.baton.history('kestrel')) {
      assert.match(v.read(`${c.slug}.md`), new RegExp(`^session: "?${c.session}"?$`, 'm'));
    }
    await v.baton.savePlan('kestrel', 'claude', 'plan one');
    await v.baton.savePlan('kestrel', 'claude', 'plan two');
    const plans = await v.baton.plans('kestrel');
    assert.deepEqual(plans.map((p) => p.text).sort(), ['plan one', 'plan two']);
    assert.equal(v.list('sessions/kestrel/plans').length, 2);
    assert.equal((await v.baton.history('kestrel')).length, 2, 'plans never appear in history');
  });

  it('records a handoff target', async () => {
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { next: 'wire the toggle' }, handoffTo: 'Cursor' });
    assert.equal(r.checkpoint.handoffTo, 'cursor');
    assert.match(fs.readFileSync(r.path, 'utf8'), /^handoff_to: cursor$/m);
    assert.equal((await v.baton.latest('kestrel'))?.handoffTo, 'cursor');
  });

  it('masks secrets in notes and checkpoint fields and counts them', async () => {
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const n = await v.baton.note('kestrel', 'claude', `use ${token} for the api`);
    assert.equal(n.redactions, 1);
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'deploy', verified: [`password=hunter2hunter2 works`] } });
    assert.ok(r.redactions >= 1);
    const text = fs.readFileSync(r.path, 'utf8');
    assert.ok(!text.includes(token) && !text.includes('hunter2hunter2'));
    assert.ok(!fs.existsSync(path.join(v.root, 'sessions/kestrel/uncommitted.md')));
  });

  it('reads history and latest from the vault when the index is deleted', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'first' } });
    await v.baton.continuity();
    assert.ok(v.exists('.baton/index.sqlite'));
    v.advance(5);
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'second' } });
    fs.rmSync(path.join(v.root, '.baton'), { recursive: true, force: true });
    assert.equal((await v.baton.latest('kestrel'))?.task, 'second');
    assert.equal((await v.baton.continuity())[0].checkpoints, 2);
  });

  it('orders history by checkpointed time, then by file name', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'zed', fields: { task: 'late' }, at: v.clock.t + 100 });
    await v.baton.commit({ scope: 'kestrel', agent: 'amp', fields: { task: 'early' }, at: v.clock.t - 100 });
    await v.baton.commit({ scope: 'kestrel', agent: 'bob', fields: { task: 'same-a' } });
    await v.baton.commit({ scope: 'kestrel', agent: 'cid', fields: { task: 'same-b' } });
    assert.deepEqual(
      (await v.baton.history('kestrel')).map((c) => c.task),
      ['late', 'same-b', 'same-a', 'early'],
    );
  });
});

describe('file modes', () => {
  it('creates vault files 0600 and folders 0700', async () => {
    const v = tempVault();
    try {
      await v.baton.note('kestrel/wt', 'claude', 'n');
      await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 't' } });
      await v.baton.savePlan('kestrel', 'claude', 'p');
      const walk = (dir: string): void => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, e.name);
          const mode = fs.statSync(full).mode & 0o777;
          if (e.isDirectory()) {
            assert.equal(mode, 0o700, full);
            walk(full);
          } else assert.equal(mode, 0o600, full);
        }
      };
      walk(path.join(v.root, 'sessions'));
    } finally {
      v.cleanup();
    }
  });
});

describe('secrets outside the fields', () => {
  it('masks tokens in git state and in Baton frontmatter keys too', async () => {
    const v = tempVault();
    try {
      const token = 'ghp_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';
      const r = await v.baton.commit({
        scope: 'kestrel',
        agent: 'claude',
        fields: { task: 't' },
        git: { branch: 'main', commit: 'abc1234', subject: `add ${token}`, dirty: 0, unreadable: false, files: [`cfg/${token}.txt`], worktree: '' },
        extra: { transcript: `/tmp/${token}.jsonl` },
      });
      assert.equal(r.redactions, 3);
      assert.ok(!fs.readFileSync(r.path, 'utf8').includes(token));
    } finally {
      v.cleanup();
    }
  });

  it('gives a worktree named "plans" its own folder, never the plans folder', async () => {
    const v = tempVault();
    try {
      await v.baton.commit({ scope: 'kestrel/plans', agent: 'claude', fields: { task: 'in a worktree called plans' } });
      assert.equal((await v.baton.history('kestrel/plans')).length, 1);
      assert.deepEqual(v.list('sessions/kestrel/plans'), []);
      assert.equal((await v.baton.continuity())[0].checkpoints, 1);
    } finally {
      v.cleanup();
    }
  });
});
