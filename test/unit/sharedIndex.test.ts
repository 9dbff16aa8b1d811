// The extension's index lease: one index opened once, lent to one caller at a
// time, saved when idle rather than on every release, and on the real index
// an incremental refresh picks up what another process wrote.
import { strict as assert } from 'assert';
import { SharedIndexLease } from '../../src/adapters/sharedIndex';
import type { IndexPort } from '../../src/core/ports';
import type { Baton } from '../../src/core/baton';
import { keptIndex, openBaton } from '../../src/app/openBaton';
import { tempVault, type TempVault } from './support/tempVault';

function fakeIndex(log: string[]): IndexPort {
  return {
    refresh: async () => ({ checkpointsParsed: 0, checkpointsReadInWorkers: 0, checkpointsRemoved: 0, scopesScanned: 0, notesScopesRead: 0 }),
    summaries: () => [],
    openNotes: () => [],
    touching: () => [],
    deadEnds: () => [],
    search: () => [],
    lastByAgent: () => [],
    checkpointCount: () => 0,
    save: async () => void log.push('save'),
    close: () => void log.push('close'),
  };
}

const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('SharedIndexLease', () => {
  it('opens once and lends to one holder at a time, in order', async () => {
    const log: string[] = [];
    let opens = 0;
    const lease = new SharedIndexLease({ open: async () => (opens++, fakeIndex(log)), saveAfterMs: 10_000 });
    const order: string[] = [];
    const use = async (name: string, ms: number): Promise<void> => {
      const index = await lease.acquire();
      order.push(`${name}+`);
      await tick(ms);
      order.push(`${name}-`);
      await lease.release(index);
    };
    await Promise.all([use('a', 20), use('b', 1), use('c', 5)]);
    assert.deepEqual(order, ['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
    assert.equal(opens, 1);
    assert.deepEqual(log, [], 'nothing saved on release');
    await lease.dispose();
    assert.deepEqual(log, ['save', 'close']);
  });

  it('saves once after the last release, when idle', async () => {
    const log: string[] = [];
    const lease = new SharedIndexLease({ open: async () => fakeIndex(log), saveAfterMs: 30 });
    for (let i = 0; i < 3; i++) await lease.release(await lease.acquire());
    assert.deepEqual(log, []);
    await tick(80);
    assert.deepEqual(log, ['save']);
    await lease.dispose();
  });

  it('gives the turn back when opening fails, and retries the open next time', async () => {
    const log: string[] = [];
    let fail = true;
    const lease = new SharedIndexLease({
      open: async () => {
        if (fail) throw new Error('disk on fire');
        return fakeIndex(log);
      },
    });
    await assert.rejects(lease.acquire(), /disk on fire/);
    fail = false;
    const index = await lease.acquire();
    await lease.release(index);
    await lease.dispose();
    await assert.rejects(lease.acquire(), /closed/);
  });

  describe('over the real index', () => {
    let v: TempVault;
    beforeEach(() => {
      v = tempVault();
    });
    afterEach(() => v.cleanup());

    it('answers from one open index and sees what another process committed', async () => {
      const lease = keptIndex(v.root);
      const shared = openBaton(v.root, { clock: v.clock, index: lease });
      assert.deepEqual(await shared.why('src/a.ts'), []);
      // "Another process": the per-command composition the CLI uses, on the same folder.
      await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'touch a', files: ['src/a.ts'] } });
      const touches = await shared.why('src/a.ts');
      assert.deepEqual(
        touches.map((t) => t.task),
        ['touch a'],
      );
      assert.equal((await shared.continuity())[0]?.project, 'kestrel');
      await lease.dispose();
    });

    describe('following changes (the extension with its watcher)', () => {
      const setup = (): { lease: SharedIndexLease; shared: Baton; clock: { ms: number } } => {
        const clock = { ms: 1_000_000 };
        const lease = keptIndex(v.root, { staleAfterMs: 30_000, now: () => clock.ms });
        lease.followChanges();
        const shared = openBaton(v.root, { clock: v.clock, index: lease });
        return { lease, shared, clock };
      };
      const otherProcessCommits = (task: string): Promise<unknown> => v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task, files: ['src/a.ts'] } });
      const tasks = async (b: Baton): Promise<string[]> => (await b.why('src/a.ts')).map((t) => t.task);

      it('skips the refresh while nothing was reported, and refreshes once a change is', async () => {
        const { lease, shared } = setup();
        assert.deepEqual(await tasks(shared), []);
        await otherProcessCommits('unreported');
        assert.deepEqual(await tasks(shared), [], 'no change reported: answered from the index as it was');
        lease.changed();
        assert.deepEqual(await tasks(shared), ['unreported']);
        await lease.dispose();
      });

      it('never skips after its own writes', async () => {
        const { lease, shared } = setup();
        assert.deepEqual(await tasks(shared), []);
        await shared.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'mine', files: ['src/a.ts'] } });
        assert.deepEqual(await tasks(shared), ['mine']);
        await shared.note('kestrel', 'codex', 'working on it');
        assert.equal((await shared.continuity())[0]?.uncommitted, 1);
        await lease.dispose();
      });

      it('refreshes anyway once the last refresh is older than staleAfterMs (a dropped event)', async () => {
        const { lease, shared, clock } = setup();
        assert.deepEqual(await tasks(shared), []);
        await otherProcessCommits('dropped event');
        clock.ms += 29_000;
        assert.deepEqual(await tasks(shared), []);
        clock.ms += 2_000;
        assert.deepEqual(await tasks(shared), ['dropped event']);
        await lease.dispose();
      });

      it('refreshes every query when no watcher follows the vault', async () => {
        const lease = keptIndex(v.root);
        const shared = openBaton(v.root, { clock: v.clock, index: lease });
        assert.deepEqual(await tasks(shared), []);
        await otherProcessCommits('seen');
        assert.deepEqual(await tasks(shared), ['seen']);
        await lease.dispose();
      });
    });
  });
});
