import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { emptyGit } from '../../src/core/model';
import { tempVault, type TempVault } from './support/tempVault';

describe('why: which checkpoints touched a file', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  it('matches every spelling of a path across projects and worktrees, newest first, never a lookalike', async () => {
    await v.baton.commit({ scope: 'logos', agent: 'claude', fields: { task: 'by files', files: ['./internal/memory/vaultstore.go (rewritten)'] }, at: v.clock.t - 30 });
    await v.baton.commit({
      scope: 'logos/wt',
      agent: 'codex',
      fields: { task: 'by git' },
      git: { ...emptyGit(), files: ['internal\\memory\\vaultstore.go'] },
      at: v.clock.t - 20,
    });
    await v.baton.commit({ scope: 'other', agent: 'cursor', fields: { task: 'lookalike', files: ['store.go', 'memory/store.go', 'internal/memory/vaultstore.go.bak'] } });
    await v.baton.commit({ scope: 'other', agent: 'amp', fields: { task: 'bare', files: ['`vaultstore.go`'] }, at: v.clock.t - 10 });

    for (const spelling of [
      'internal/memory/vaultstore.go',
      './internal/memory/vaultstore.go',
      'memory/vaultstore.go',
      'vaultstore.go',
      '/home/me/src/logos/internal/memory/vaultstore.go',
      'internal\\memory\\vaultstore.go',
    ]) {
      const tasks = (await v.baton.why(spelling)).map((t) => t.task);
      assert.deepEqual(tasks, ['bare', 'by git', 'by files'], spelling);
    }
    assert.deepEqual(
      (await v.baton.why('store.go')).map((t) => t.task),
      ['lookalike'],
    );
    assert.equal((await v.baton.why('internal/memory/vaultstore.go', 1)).length, 1, 'limit');
    const [top] = await v.baton.why('vaultstore.go');
    assert.equal(top.slug, `sessions/other/${top.session}`);
    assert.equal(top.matched, 'vaultstore.go');
  });
});

describe('the index is a cache', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  it('restores notes from uncommitted.md after .baton is deleted, and a second rebuild doubles nothing', async () => {
    await v.baton.note('kestrel', 'claude', 'one');
    await v.baton.note('kestrel/wt', 'cursor', 'two');
    fs.rmSync(path.join(v.root, '.baton'), { recursive: true, force: true });
    const first = await v.baton.reindex();
    assert.equal(first.restored, 2);
    const second = await v.baton.reindex();
    assert.equal(second.restored, 0);
    const c = await v.baton.continuity();
    assert.equal(c.find((p) => p.project === 'kestrel')?.uncommitted, 2);
  });

  it('rebuilds from a corrupt index file', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'x', files: ['a.ts'] } });
    await v.baton.continuity();
    fs.writeFileSync(path.join(v.root, '.baton/index.sqlite'), 'not a database');
    assert.equal((await v.baton.why('a.ts')).length, 1);
    assert.equal((await v.baton.reindex()).checkpoints, 1);
  });

  it('keeps a note the vault refused as pending and writes it out on reindex, once', async () => {
    // A file where the scope folder should be makes the vault refuse the write even for root.
    fs.mkdirSync(path.join(v.root, 'sessions'), { recursive: true });
    const blocker = path.join(v.root, 'sessions', 'kestrel');
    fs.writeFileSync(blocker, 'in the way');
    const r = await v.baton.note('kestrel', 'claude', 'must not be lost');
    assert.equal(r.durable, false);
    assert.match(r.reason, /baton index/);
    assert.equal((await v.baton.reindex()).rescued, 0, 'still refused: stays pending');
    fs.rmSync(blocker);
    const out = await v.baton.reindex();
    assert.equal(out.rescued, 1);
    assert.deepEqual(
      (await v.baton.sessions('kestrel')).uncommitted.map((n) => n.text),
      ['must not be lost'],
    );
    assert.equal((await v.baton.reindex()).rescued, 0);
    assert.equal((await v.baton.sessions('kestrel')).uncommitted.length, 1);
  });
});
