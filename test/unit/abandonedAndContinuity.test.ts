import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { BatonError } from '../../src/core/errors';
import { stamp } from '../../src/core/time';
import { tempVault, type TempVault } from './support/tempVault';

const HOUR = 3600;

describe('abandoned sessions', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  it('lists a session silent past 6h and closes it into an auto-closed checkpoint, leaving a sibling alone', async () => {
    const start = v.clock.t;
    await v.baton.note('kestrel', 'cursor', 'started the refactor');
    v.advance(HOUR);
    await v.baton.note('kestrel', 'cursor', 'half the callers moved');
    const last = v.clock.t;
    v.advance(8 * HOUR);
    await v.baton.note('kestrel', 'claude', 'sibling still busy');

    const abandoned = await v.baton.abandoned();
    assert.equal(abandoned.length, 1);
    const [a] = abandoned;
    assert.equal(a.session, `${stamp(start)}-cursor`);
    assert.equal(a.agent, 'cursor');
    assert.equal(a.project, 'kestrel');
    assert.equal(a.notes, 2);
    assert.equal(a.lastActivity, last);

    const cp = await v.baton.closeAbandoned('kestrel', a.session);
    assert.equal(cp.session, a.session, 'stamped from the session start');
    assert.equal(cp.ts, last, 'checkpointed at the last activity');
    assert.equal(cp.autoClosed, true);
    assert.match(cp.state, /^closed automatically — no activity for 8h, past the 6h abandonment window; nobody reviewed this session; this is not a real handoff/);
    assert.match(cp.state, /Recorded during the session:\n- started the refactor\n- half the callers moved$/);
    const file = v.read(`sessions/kestrel/${a.session}.md`);
    assert.match(file, /^auto_closed: true$/m);

    const left = await v.baton.sessions('kestrel');
    assert.deepEqual(
      left.uncommitted.map((n) => n.text),
      ['sibling still busy'],
    );
    assert.deepEqual(await v.baton.abandoned(), []);
  });

  it('refuses an unknown id, a closed session and a live one', async () => {
    await v.baton.note('kestrel', 'cursor', 'working');
    const id = `${stamp(v.clock.t)}-cursor`;
    v.advance(HOUR);
    await assert.rejects(v.baton.closeAbandoned('kestrel', id), (e: BatonError) => e.kind === 'refused' && /not safe to auto-close/.test(e.message));
    await assert.rejects(v.baton.closeAbandoned('kestrel', '20200101-000000-ghost'), (e: BatonError) => /No open session/.test(e.message));
    v.advance(7 * HOUR);
    await v.baton.closeAbandoned('kestrel', id);
    await assert.rejects(v.baton.closeAbandoned('kestrel', id), (e: BatonError) => /already closed/.test(e.message));
  });

  it('calls a session closed by an ordinary commit closed, not unknown', async () => {
    await v.baton.note('kestrel', 'cursor', 'working');
    const id = `${stamp(v.clock.t)}-cursor`;
    v.advance(60);
    await v.baton.commit({ scope: 'kestrel', agent: 'cursor', fields: { task: 't' } });
    await assert.rejects(v.baton.closeAbandoned('kestrel', id), (e: BatonError) => /already closed/.test(e.message));
  });
});

describe('continuity', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  it('rolls worktrees into their project, orders by last checkpoint, never-checkpointed last, and marks quiet', async () => {
    await v.baton.commit({ scope: 'old', agent: 'claude', fields: { task: 'ancient' }, at: v.clock.t - 20 * 86400 });
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'main' }, at: v.clock.t - 3 * HOUR });
    await v.baton.commit({ scope: 'kestrel/feature-x', agent: 'cursor', fields: { task: 'wt' }, at: v.clock.t - HOUR });
    await v.baton.note('fresh', 'codex', 'no checkpoint yet');
    await v.baton.note('kestrel/feature-x', 'cursor', 'old note', v.clock.t - 7 * HOUR);

    const list = await v.baton.continuity();
    assert.deepEqual(
      list.map((p) => p.project),
      ['kestrel', 'old', 'fresh'],
    );
    const [k, old, fresh] = list;
    assert.equal(k.checkpoints, 2);
    assert.equal(k.lastAgent, 'cursor');
    assert.equal(k.lastCheckpoint, v.clock.t - HOUR);
    assert.equal(k.uncommitted, 1);
    assert.equal(k.abandoned, 1);
    assert.equal(k.quiet, false);
    assert.deepEqual(k.scopes, ['kestrel/feature-x']);
    assert.equal(old.quiet, true, 'no checkpoint in 14 days');
    assert.equal(fresh.checkpoints, 0);
    assert.equal(fresh.quiet, true, 'never checkpointed');
  });

  it("knows each project's machines and whose its last checkpoint is, from the index alone", async () => {
    const here = await v.baton.machine();
    const other = 'feedc0defeedc0de';
    await v.baton.commit({ scope: 'solo', agent: 'claude', fields: { task: 'alone' }, at: v.clock.t - 2 * HOUR });
    await v.baton.commit({ scope: 'team', agent: 'claude', fields: { task: 'mine' }, at: v.clock.t - 3 * HOUR });
    // Another clone's checkpoint, arrived by sync, newer than this machine's; and a third machine's open session.
    const theirs = (await v.baton.history('team'))[0];
    const file = v.read(`sessions/team/${theirs.session}.md`).replace(`machine: ${here}`, `machine: ${other}\nperson: Ann`);
    fs.writeFileSync(
      path.join(v.root, 'sessions', 'team', `${stamp(v.clock.t - HOUR)}-claude.md`),
      file.replace(/^checkpointed: .*$/m, `checkpointed: ${new Date((v.clock.t - HOUR) * 1000).toISOString().replace('.000', '')}`),
    );
    fs.appendFileSync(path.join(v.root, 'sessions', 'team', 'uncommitted.md'), `- on it <!-- machine=0123456789abcdef --> <!-- ts=${v.clock.t - 60} agent=codex -->\n`);

    const list = await v.baton.continuity();
    const team = list.find((p) => p.project === 'team');
    const solo = list.find((p) => p.project === 'solo');
    assert.ok(team && solo, JSON.stringify(list));
    assert.equal(team.lastCheckpoint, v.clock.t - HOUR);
    assert.deepEqual([team.lastMachine, team.lastPerson], [other, 'Ann']);
    assert.deepEqual([...team.machines].sort(), ['0123456789abcdef', here, other].sort());
    assert.deepEqual([solo.lastMachine, solo.lastPerson, solo.machines], [here, '', [here]]);
  });

  it('reads a worktree scope history from its own folder only', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'main' } });
    await v.baton.commit({ scope: 'Kestrel/Feature X', agent: 'claude', fields: { task: 'wt' } });
    assert.deepEqual(
      (await v.baton.history('kestrel')).map((c) => c.task),
      ['main'],
    );
    assert.deepEqual(
      (await v.baton.history('kestrel/feature-x')).map((c) => c.task),
      ['wt'],
    );
    assert.ok(v.exists('sessions/kestrel/feature-x'));
  });

  it('sees a checkpoint added after the index was saved, and one removed', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'one' } });
    assert.equal((await v.baton.continuity())[0].checkpoints, 1);
    v.advance(5);
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'two' } });
    assert.equal((await v.baton.continuity())[0].checkpoints, 2);
    fs.rmSync(r.path);
    assert.equal((await v.baton.continuity())[0].checkpoints, 1);
  });

  it('survives stray, temporary, torn, empty and binary files beside good checkpoints', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'good one', files: ['src/app.ts'] } });
    const dir = path.join(v.root, 'sessions/kestrel');
    fs.writeFileSync(path.join(dir, 'zz-notes.md'), '# my own notes\n');
    fs.writeFileSync(path.join(dir, '.20260101-000000-x.md.123.tmp'), 'half');
    fs.writeFileSync(path.join(dir, '20260101-000001-torn.md'), '---\ntype: checkpoint\ntask: [unclosed\n');
    fs.writeFileSync(path.join(dir, '20260101-000002-empty.md'), '');
    fs.writeFileSync(path.join(dir, '20260101-000003-bin.md'), Buffer.from([0, 255, 1, 2, 3, 0xc3, 0x28]));
    fs.writeFileSync(path.join(dir, '20260101-000004-badyaml.md'), '---\n: : :\n  - [\n---\n## Task\n\nbody survives\n');
    const tasks = (await v.baton.history('kestrel')).map((c) => c.task);
    assert.deepEqual(tasks.sort(), ['body survives', 'good one']);
    assert.equal((await v.baton.why('src/app.ts')).length, 1);
    assert.equal((await v.baton.continuity())[0].checkpoints, 2);
  });
});
