// Scenario 5c: a notes file the committer cannot read. An agent run once with
// sudo leaves a root-owned `uncommitted.md` (0600) in a scope the user owns;
// the user's next commit must stop with an error that says so, not take the
// unreadable file for "no notes" and then delete it with every note in it.
// The CLI runs as uid 65534 over a vault it owns (as root, permission bits
// stop nothing).
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, log, removeTree, run, tempRoot, walk, type RunOptions, type RunResult } from './support';

const NOBODY = 65534;

describe('chaos 5c: a notes file the committer cannot read', function () {
  this.timeout(5 * 60_000);
  let root: string;
  before(function () {
    if (process.platform === 'win32' || process.getuid?.() !== 0) {
      log('skipped: needs root, to leave a root-owned file and run the CLI as uid 65534');
      this.skip();
    }
    ensureBuilt();
  });
  beforeEach(() => {
    root = tempRoot('baton-chaos5c-');
  });
  afterEach(() => removeTree(root));

  it('refuses to commit over a root-owned notes file, keeps it and every note in it, and says why', async () => {
    const started = Date.now();
    const vault = path.join(root, 'vault');
    const work = path.join(root, 'work');
    fs.mkdirSync(vault, { mode: 0o700 });
    fs.mkdirSync(work, { mode: 0o700 });
    fs.chmodSync(root, 0o711);
    const asUser = (args: string[], extra: Partial<RunOptions> = {}): Promise<RunResult> =>
      run(args, { vault, cwd: work, env: { HOME: work }, uid: NOBODY, gid: NOBODY, ...extra });

    // The user's own vault, scope and notes; then a sudo'd agent rewrites the
    // notes file (as a fold does), leaving it root's, mode 0600.
    fs.chownSync(vault, NOBODY, NOBODY);
    fs.chownSync(work, NOBODY, NOBODY);
    const first = await asUser(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', "the user's first checkpoint"]);
    assert.ok(first.acked, first.stderr);
    for (const text of ['sudo note one', 'sudo note two']) {
      const r = await asUser(['note', '-p', 'kestrel', '-a', 'claude', text]);
      assert.ok(r.acked, r.stderr);
    }
    const owned = path.join(vault, 'sessions', 'kestrel', 'uncommitted.md');
    fs.writeFileSync(`${owned}.sudo`, fs.readFileSync(owned), { mode: 0o600 });
    fs.renameSync(`${owned}.sudo`, owned);
    const notesFile = path.join(vault, 'sessions', 'kestrel', 'uncommitted.md');
    assert.equal(fs.statSync(notesFile).uid, 0, "the notes file is root's");
    assert.equal(fs.statSync(path.join(vault, 'sessions', 'kestrel')).uid, NOBODY, 'in a folder the user owns (so the user could delete it)');
    const before = fs.readFileSync(notesFile, 'utf8');
    const checkpointsBefore = walk(vault).filter((e) => /^sessions\/kestrel\/[0-9]{8}-/.test(e.rel)).length;

    for (const args of [
      ['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'commit over an unreadable notes file'],
      ['handoff', '-p', 'kestrel', '-a', 'claude', '--to', 'cursor', '--task', 'hand over over an unreadable notes file'],
    ]) {
      const r = await asUser(args);
      assert.notEqual(r.code, 0, `${args[0]} must not succeed: ${r.stdout}`);
      assert.match(r.stderr, /Cannot read the working notes/, `${args[0]} says what it cannot read: ${r.stderr}`);
      assert.match(r.stderr, /EACCES/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'a message, not a stack trace');
    }
    assert.equal(fs.readFileSync(notesFile, 'utf8'), before, 'the notes file and every note in it are still there');
    const checkpointsAfter = walk(vault).filter((e) => /^sessions\/kestrel\/[0-9]{8}-/.test(e.rel)).length;
    assert.equal(checkpointsAfter, checkpointsBefore, 'no checkpoint was written without the notes it should fold');

    // Views do not show the scope as having no notes either.
    const view = await asUser(['sessions', 'kestrel', '--json']);
    assert.ok(!view.acked || !/"uncommitted":\s*\[\]/.test(view.stdout), `sessions does not claim there are no notes: ${view.stdout.slice(0, 200)}`);

    // Given back to the user, the commit folds both notes.
    fs.chownSync(notesFile, NOBODY, NOBODY);
    const ok = await asUser(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'commit once readable', '--json']);
    assert.ok(ok.acked, ok.stderr);
    const written = fs.readFileSync((JSON.parse(ok.stdout) as { path: string }).path, 'utf8');
    assert.match(written, /- sudo note one\n- sudo note two/);
    log(`${((Date.now() - started) / 1000).toFixed(1)}s`);
  });
});
