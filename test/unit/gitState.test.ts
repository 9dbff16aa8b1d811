import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { emptyGit } from '../../src/core/model';
import { parseStatus, readGitState } from '../../src/adapters/git/gitState';
import { git } from './support/gitRepo';

const temps: string[] = [];
function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'baton-git-')));
  temps.push(dir);
  return dir;
}

/** A repository in `<temp>/<name>` on branch main, with `commits` commits. */
function makeRepo(commits = 1, name = 'kestrel'): string {
  const dir = path.join(tempDir(), name);
  fs.mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  for (let i = 1; i <= commits; i++) {
    fs.writeFileSync(path.join(dir, 'readme.md'), `version ${i}\n`);
    git(dir, 'add', 'readme.md');
    git(dir, 'commit', '-q', '-m', `commit number ${i}`);
  }
  return dir;
}

/** Runs `fn` with process.env changed, restoring it even when `fn` throws. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, val] of Object.entries(v)) {
      if (val === undefined) delete process.env[k];
      else process.env[k] = val;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

/** A folder whose only program is a `git` that logs each start to `log`. */
function fakeGitBin(log: string): string {
  const bin = tempDir();
  fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho started >> '${log}'\necho 'fatal: fake' >&2\nexit 1\n`, { mode: 0o755 });
  return bin;
}

describe('readGitState', () => {
  after(() => {
    for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a clean repository: branch, short sha, subject, nothing dirty', async () => {
    const dir = makeRepo(2);
    const state = await readGitState(dir);
    assert.deepStrictEqual(state, {
      ...emptyGit(),
      branch: 'main',
      commit: git(dir, 'rev-parse', '--short', 'HEAD'),
      subject: 'commit number 2',
    });
  });

  it('counts dirty files (modified, staged, renamed, untracked) and lists them, a rename by its new path', async () => {
    const dir = makeRepo();
    fs.writeFileSync(path.join(dir, 'other.txt'), 'x\n');
    git(dir, 'add', 'other.txt');
    git(dir, 'commit', '-q', '-m', 'other');
    fs.appendFileSync(path.join(dir, 'readme.md'), 'more\n');
    git(dir, 'mv', 'other.txt', 'renamed.txt');
    fs.writeFileSync(path.join(dir, 'staged.ts'), 'new\n');
    git(dir, 'add', 'staged.ts');
    fs.writeFileSync(path.join(dir, 'with space.md'), 'untracked\n');

    const state = await readGitState(dir);
    assert.strictEqual(state.unreadable, false);
    assert.strictEqual(state.dirty, 4);
    assert.deepStrictEqual([...state.files].sort(), ['readme.md', 'renamed.txt', 'staged.ts', 'with space.md']);
  });

  it('counts all 25 dirty files but lists only 20', async () => {
    const dir = makeRepo();
    for (let i = 0; i < 25; i++) fs.writeFileSync(path.join(dir, `f${String(i).padStart(2, '0')}.txt`), `${i}\n`);
    const state = await readGitState(dir);
    assert.strictEqual(state.dirty, 25);
    assert.strictEqual(state.files.length, 20);
    assert.strictEqual(new Set(state.files).size, 20);
  });

  it('records a detached HEAD as branch "" with the commit it stands on', async () => {
    const dir = makeRepo(2);
    git(dir, 'checkout', '-q', '--detach', 'HEAD~1');
    const state = await readGitState(dir);
    assert.strictEqual(state.branch, '');
    assert.strictEqual(state.commit, git(dir, 'rev-parse', '--short', 'HEAD'));
    assert.strictEqual(state.subject, 'commit number 1');
    assert.strictEqual(state.unreadable, false);
  });

  it('reads a repository with no commits yet: its branch and dirty files, no commit', async () => {
    const dir = makeRepo(0);
    git(dir, 'symbolic-ref', 'HEAD', 'refs/heads/trunk');
    fs.writeFileSync(path.join(dir, 'first.ts'), 'x\n');
    const state = await readGitState(dir);
    assert.deepStrictEqual(state, { ...emptyGit(), branch: 'trunk', dirty: 1, files: ['first.ts'] });
  });

  it('returns emptyGit() outside a repository and for a folder that does not exist', async function () {
    const dir = tempDir();
    try {
      git(dir, 'rev-parse', '--git-dir');
      this.skip(); // the temp folder itself sits in a repository on this machine
    } catch {
      // expected: not a repository
    }
    assert.deepStrictEqual(await readGitState(dir), emptyGit());
    assert.deepStrictEqual(await readGitState(path.join(dir, 'missing')), emptyGit());
  });

  it('gives the top-level path of a linked worktree, and "" in the main one', async () => {
    const main = makeRepo();
    const wt = path.join(path.dirname(main), 'kestrel-feature');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', wt);
    fs.mkdirSync(path.join(wt, 'sub'));

    const linked = await readGitState(path.join(wt, 'sub'));
    assert.strictEqual(linked.worktree, wt);
    assert.strictEqual(linked.branch, 'feature');
    assert.strictEqual(linked.unreadable, false);

    const inMain = await readGitState(main);
    assert.strictEqual(inMain.worktree, '');
    assert.strictEqual(inMain.branch, 'main');
  });

  it('is unreadable (never clean) when git is missing from PATH', async () => {
    const dir = makeRepo();
    fs.writeFileSync(path.join(dir, 'dirty.txt'), 'x\n');
    const state = await withEnv({ PATH: tempDir() }, () => readGitState(dir));
    assert.strictEqual(state.unreadable, true);
    assert.strictEqual(state.dirty, 0);
  });

  it('is unreadable when status fails on a corrupt index, keeping the commit it could read', async () => {
    const dir = makeRepo();
    fs.writeFileSync(path.join(dir, '.git', 'index'), 'not an index at all');
    const state = await readGitState(dir);
    assert.strictEqual(state.unreadable, true);
    assert.strictEqual(state.commit, git(dir, 'rev-parse', '--short', 'HEAD'));
  });

  it('with enabled:false starts no process and reports unreadable', async function () {
    if (process.platform === 'win32') this.skip();
    const dir = makeRepo();
    const log = path.join(tempDir(), 'spawns.log');
    const bin = fakeGitBin(log);

    const refused = await withEnv({ PATH: bin }, () => readGitState(dir, { enabled: false }));
    assert.deepStrictEqual(refused, { ...emptyGit(), unreadable: true });
    assert.strictEqual(fs.existsSync(log), false, 'a git process was started');

    // The control: the same fake git is seen when it is allowed to run.
    const allowed = await withEnv({ PATH: bin }, () => readGitState(dir));
    assert.strictEqual(fs.existsSync(log), true);
    assert.strictEqual(allowed.unreadable, true);
  });

  it('reads the repository of dir even when GIT_DIR points elsewhere and EDITOR/GIT_ASKPASS are set', async () => {
    const dir = makeRepo(1, 'kestrel');
    const other = makeRepo(2, 'osprey');
    const state = await withEnv({ GIT_DIR: path.join(other, '.git'), GIT_WORK_TREE: other, EDITOR: 'vi', GIT_ASKPASS: '/bin/false' }, () => readGitState(dir));
    assert.strictEqual(state.unreadable, false);
    assert.strictEqual(state.subject, 'commit number 1');
  });
});

describe('parseStatus', () => {
  it('reads the branch from every header shape', () => {
    assert.deepStrictEqual(parseStatus('## main...origin/main [ahead 1, behind 2]\0'), { branch: 'main', paths: [] });
    assert.deepStrictEqual(parseStatus('## feat/x\0'), { branch: 'feat/x', paths: [] });
    assert.deepStrictEqual(parseStatus('## HEAD (no branch)\0'), { branch: '', paths: [] });
    assert.deepStrictEqual(parseStatus('## No commits yet on main\0'), { branch: 'main', paths: [] });
    assert.deepStrictEqual(parseStatus('## Initial commit on master\0'), { branch: 'master', paths: [] });
  });

  it('keeps the new path of a rename or copy and skips the old one', () => {
    const out = '## main\0R  new.ts\0old.ts\0C  copy.ts\0src.ts\0 M a\nb.md\0?? dir/\0';
    assert.deepStrictEqual(parseStatus(out).paths, ['new.ts', 'copy.ts', 'a\nb.md', 'dir/']);
  });
});
