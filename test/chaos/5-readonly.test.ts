// Scenario 5: a vault that refuses writes. The tests run as root in CI, where
// permission bits stop nothing, so the CLI runs as an unprivileged user
// (nobody, 65534) over a vault that user owns, and the folders are made
// read-only for real. Two honest cases:
//   - the notes folders refuse writes but `.baton-live/` (where refused notes
//     wait, in `.baton-live/pending/`) still takes them: a note is acknowledged as kept
//     but not yet durable, and a later `baton index`, once the folder is
//     writable again, writes it out exactly once;
//   - the whole vault refuses writes: nothing can be kept anywhere, and the
//     note says so with exit 1 instead of claiming success.
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, log, parseJson, readRaw, removeTree, run, tempRoot, walk, type RunOptions, type RunResult } from './support';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** chmod every folder and file under `dir` (the folder itself included). */
function chmodTree(dir: string, dirMode: number, fileMode: number): void {
  for (const e of walk(dir)) fs.chmodSync(path.join(dir, e.rel), e.dir ? dirMode : fileMode);
  fs.chmodSync(dir, dirMode);
}

function chownTree(dir: string): void {
  fs.chownSync(dir, NOBODY, NOBODY);
  for (const e of walk(dir)) fs.lchownSync(path.join(dir, e.rel), NOBODY, NOBODY);
}

describe('chaos 5: a vault that refuses writes', function () {
  this.timeout(10 * 60_000);
  let root: string;
  let vault: string;
  let work: string;
  let cli: (args: string[], extra?: Partial<RunOptions>) => Promise<RunResult>;

  before(function () {
    if (process.platform === 'win32') this.skip();
    ensureBuilt();
  });
  beforeEach(() => {
    root = tempRoot('baton-chaos5-');
    vault = path.join(root, 'vault');
    work = path.join(root, 'work');
    fs.mkdirSync(vault, { mode: 0o700 });
    fs.mkdirSync(work, { mode: 0o700 });
    if (asRoot) {
      fs.chmodSync(root, 0o711);
      chownTree(vault);
      chownTree(work);
    }
    const user = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
    cli = (args, extra = {}) => run(args, { vault, cwd: work, env: { HOME: work }, ...user, ...extra });
  });
  afterEach(() => removeTree(root));

  it('keeps a refused note until `baton index` can write it out, and loses nothing in between', async () => {
    const started = Date.now();
    const whoami = await cli(['--version']);
    assert.ok(whoami.acked, `the CLI runs as ${asRoot ? 'nobody' : 'this user'}: ${whoami.stderr}`);

    for (const [scope, text] of [
      ['kestrel', 'before-1'],
      ['kestrel', 'before-2'],
      ['osprey', 'before-3'],
    ]) {
      const r = await cli(['note', '-p', scope, '-a', 'claude', text]);
      assert.ok(r.acked && !r.stderr, r.stderr);
    }
    const cp = await cli(['checkpoint', '-p', 'osprey', '-a', 'claude', '--task', 'a checkpoint before']);
    assert.ok(cp.acked, cp.stderr);

    // ---- the notes folders refuse writes; .baton-live/ does not
    chmodTree(path.join(vault, 'sessions'), 0o500, 0o400);
    // The same user really cannot write there (root could: that is why the CLI is not root here).
    const probe = spawnSync(
      process.execPath,
      ['-e', `require('fs').appendFileSync(${JSON.stringify(path.join(vault, 'sessions', 'kestrel', 'uncommitted.md'))}, 'x')`],
      asRoot ? { uid: NOBODY, gid: NOBODY } : {},
    );
    assert.notEqual(probe.status, 0, 'the notes file really refuses writes');

    const refusedNotes: { scope: string; agent: string; text: string }[] = [
      { scope: 'kestrel', agent: 'claude', text: 'during-1' },
      { scope: 'kestrel', agent: 'cursor', text: 'during-2' },
      { scope: 'heron', agent: 'claude', text: 'during-3 in a scope with no folder yet' },
      { scope: 'kestrel/wt', agent: 'codex', text: 'during-4 in a worktree' },
    ];
    for (const n of refusedNotes) {
      const r = await cli(['note', '-p', n.scope, '-a', n.agent, n.text]);
      assert.equal(r.code, 0, `a refused note is still acknowledged as kept: ${r.stderr}`);
      assert.match(r.stderr, /not yet durable/, 'and the writer is told it is not yet durable');
      assert.match(r.stderr, /baton index/, 'and what to do about it');
    }
    const pendingDir = path.join(vault, '.baton-live', 'pending');
    const pending = fs.existsSync(pendingDir) ? fs.readdirSync(pendingDir).filter((f) => f.endsWith('.json')) : [];
    assert.equal(pending.length, refusedNotes.length, 'each refused note waits in .baton-live/pending/, one file each');
    assert.equal(fs.statSync(pendingDir).mode & 0o777, 0o700, 'the pending folder is private');
    for (const f of pending) assert.equal(fs.statSync(path.join(pendingDir, f)).mode & 0o777, 0o600, 'a pending note is private');

    // A checkpoint and a plan cannot be kept anywhere: they fail, and say why.
    const cp2 = await cli(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'refused checkpoint']);
    assert.equal(cp2.code, 1);
    assert.match(cp2.stderr, /refused a write/);
    const plan = await cli(['plan', '-p', 'kestrel', '-a', 'claude'], { input: 'a refused plan' });
    assert.equal(plan.code, 1);
    assert.match(plan.stderr, /refused a write/);

    // Views still answer, and an index run while still read-only keeps the pending notes.
    for (const view of [
      ['sessions', 'kestrel', '--json'],
      ['continuity', '--json'],
      ['resume', 'kestrel', '--json'],
    ]) {
      const r = await cli(view);
      assert.ok(r.acked, `${view.join(' ')} answers on a read-only vault: ${r.stderr}`);
    }
    const early = await cli(['index', '--json']);
    assert.ok(early.acked, early.stderr);
    assert.equal(parseJson<{ rescued: number }>(early, 'index').rescued, 0);
    assert.equal(fs.readdirSync(pendingDir).filter((f) => f.endsWith('.json')).length, refusedNotes.length, 'nothing pending is dropped while the vault still refuses');

    // ---- the whole vault refuses writes, .baton/ and .baton-live/ included: nothing can be kept, and the note says so
    chmodTree(path.join(vault, '.baton'), 0o500, 0o400);
    chmodTree(path.join(vault, '.baton-live'), 0o500, 0o400);
    fs.chmodSync(vault, 0o500);
    const nowhere = await cli(['note', '-p', 'kestrel', '-a', 'claude', 'nowhere to keep this']);
    assert.equal(nowhere.code, 1, `with nowhere to keep it the note is not acknowledged: ${nowhere.stderr}`);
    assert.match(nowhere.stderr, /refused a write/);
    const stillViews = await cli(['sessions', 'kestrel', '--json']);
    assert.ok(stillViews.acked, `views answer on a wholly read-only vault: ${stillViews.stderr}`);

    // ---- writable again: `baton index` writes every refused note out, exactly once
    fs.chmodSync(vault, 0o700);
    chmodTree(path.join(vault, '.baton'), 0o700, 0o600);
    chmodTree(path.join(vault, '.baton-live'), 0o700, 0o600);
    chmodTree(path.join(vault, 'sessions'), 0o700, 0o600);
    const rescue = await cli(['index', '--json']);
    assert.ok(rescue.acked, rescue.stderr);
    assert.equal(parseJson<{ rescued: number }>(rescue, 'index').rescued, refusedNotes.length);
    const again = await cli(['index', '--json']);
    assert.equal(parseJson<{ rescued: number }>(again, 'index').rescued, 0);

    const raw = readRaw(vault);
    const count = (text: string): number => raw.notes.filter((n) => n.text === text).length + raw.folds.filter((f) => f.text === text).length;
    for (const text of ['before-1', 'before-2', 'before-3']) assert.equal(count(text), 1, `${text} survived`);
    for (const n of refusedNotes) {
      const found = raw.notes.filter((x) => x.text === n.text);
      assert.equal(found.length, 1, `${n.text} was written out exactly once`);
      assert.equal(found[0].scope, n.scope);
      assert.equal(found[0].agent, n.agent);
    }
    assert.equal(count('nowhere to keep this'), 0, 'the note that was not acknowledged was not kept either');
    assert.deepEqual(
      fs.readdirSync(pendingDir).filter((f) => f.endsWith('.json')),
      [],
      'nothing left pending',
    );
    const view = parseJson<{ uncommitted: { text: string }[] }>(await cli(['sessions', 'kestrel', '--json']), 'sessions');
    assert.ok(view.uncommitted.some((n) => n.text === 'during-1'));
    log(`${((Date.now() - started) / 1000).toFixed(1)}s, CLI run as ${asRoot ? 'uid 65534' : `uid ${process.getuid?.()}`}`);
  });
});
