// The vault as the extension holds it (src/app/keptVault.ts), on real files and
// real sql.js: what an editor asks of the vault's layout, one checkpoint by
// its slug, the core's writes announced, and a rebuild from nothing.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { KeptVault } from '../../src/app/keptVault';
import { tempDir } from './support/tempVault';

describe('app: the kept vault', () => {
  let dir: string;
  let root: string;
  const opened: KeptVault[] = [];
  const heard: string[] = [];
  const keep = (at = root): KeptVault => {
    const k = new KeptVault(at, { onWrite: (scope) => heard.push(scope), onError: (err) => assert.fail(String(err)) });
    opened.push(k);
    return k;
  };
  beforeEach(() => {
    dir = tempDir('baton-kept-');
    root = path.join(dir, 'vault');
    heard.length = 0;
  });
  afterEach(async () => {
    for (const k of opened.splice(0)) await k.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('probes the layout without reading a file: no vault, empty, ready, unreadable', async () => {
    assert.equal(await keep().probe(), 'noVault');
    fs.mkdirSync(root);
    assert.equal(await keep().probe(), 'empty');
    await keep().baton.note('kestrel', 'claude', 'first');
    assert.equal(await keep().probe(), 'ready');
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    assert.equal(await keep(file).probe(), 'unreadable');
  });

  it('tells the scope of a changed vault file, worktrees and plans included', () => {
    const k = keep();
    const sessions = path.join(root, 'sessions');
    assert.equal(k.scopeOfFile(path.join(sessions, 'kestrel', '20260814-143207-claude.md')), 'kestrel');
    assert.equal(k.scopeOfFile(path.join(sessions, 'kestrel', 'wt-one', 'uncommitted.md')), 'kestrel/wt-one');
    assert.equal(k.scopeOfFile(path.join(sessions, 'kestrel', 'wt-one', 'plans', 'p.md')), 'kestrel/wt-one');
    assert.equal(k.scopeOfFile(path.join(sessions, 'a', 'b', 'c', 'd.md')), undefined);
    assert.equal(k.scopeOfFile(path.join(root, 'README.md')), undefined);
    assert.ok(k.contains(path.join(root, 'sessions', 'x.md')));
    assert.ok(!k.contains(root) && !k.contains(path.join(dir, 'elsewhere.md')));
  });

  it('reads one checkpoint by its slug, refuses a slug leaving the vault, and announces the write', async () => {
    const k = keep();
    const r = await k.baton.commit({ scope: 'kestrel/wt-one', agent: 'claude', fields: { task: 'speed up the cart' } });
    assert.deepEqual(heard, ['kestrel/wt-one']);
    const cp = await k.checkpoint(r.checkpoint.slug);
    assert.equal(cp?.task, 'speed up the cart');
    assert.equal(cp?.project, 'kestrel/wt-one');
    assert.equal(k.fileOf(r.checkpoint.slug), r.path);
    assert.equal(await k.checkpoint('sessions/../../etc/passwd'), null);
    assert.equal(k.fileOf('sessions/../../etc/passwd'), undefined);
    assert.equal(await k.checkpoint('sessions/kestrel/no-such'), null);
    // The slug's scope and the scope's notes, named by the vault's layout for the editor (which spells no vault path).
    assert.equal(k.scopeOfSlug(r.checkpoint.slug), 'kestrel/wt-one');
    assert.equal(k.scopeOfSlug('sessions/kestrel/plans/plan-x'), 'kestrel');
    assert.equal(k.scopeOfSlug('README'), undefined);
    await k.baton.note('kestrel/wt-one', 'claude', 'a note');
    assert.equal(k.notesFileOf('kestrel/wt-one'), path.join(root, 'sessions', 'kestrel', 'wt-one', 'uncommitted.md'));
    assert.ok(fs.existsSync(k.notesFileOf('kestrel/wt-one') ?? ''));
  });

  it('rebuilds the index from the markdown files alone, the saved copy deleted first', async () => {
    const k = keep();
    await k.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'touch a', files: ['src/a.ts'] } });
    assert.equal((await k.baton.why('a.ts')).length, 1);
    await k.close();
    const saved = path.join(root, '.baton', 'index.sqlite');
    assert.ok(fs.existsSync(saved));
    fs.writeFileSync(saved, 'not a database');
    const again = keep();
    const r = await again.rebuildIndex();
    assert.equal(r.checkpoints, 1);
    assert.equal((await again.baton.why('a.ts'))[0]?.task, 'touch a');
    // Saved again, from the vault.
    assert.notEqual(fs.readFileSync(saved, 'utf8'), 'not a database');
  });
});
