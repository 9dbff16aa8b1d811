import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FileHistory, fileChangedSince } from '../../src/adapters/git/fileHistory';
import { gitEnv } from './support/gitRepo';

const T0 = 1_750_000_000; // the checkpoint's time in every case

const baseEnv = gitEnv;

const git = (cwd: string, args: string[], env: Record<string, string | undefined> = baseEnv): string =>
  execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

describe('fileChangedSince', () => {
  const temps: string[] = [];

  function tempDir(): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'baton-history-')));
    temps.push(dir);
    return dir;
  }

  /** Writes `files` and commits them with committer (and author) time `ts`. */
  function commitAt(repo: string, ts: number, files: Record<string, string>): void {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
      fs.writeFileSync(path.join(repo, rel), text);
    }
    git(repo, ['add', '-A']);
    const date = `@${ts} +0000`;
    git(repo, ['commit', '-q', '-m', `at ${ts}`], { ...baseEnv, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  }

  function makeRepo(): string {
    const repo = tempDir();
    git(repo, ['init', '-q', '-b', 'main']);
    return repo;
  }

  after(() => {
    for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is true only after a commit to the file later than the checkpoint', async () => {
    const repo = makeRepo();
    commitAt(repo, T0 - 100, { 'src/a.ts': 'v1', 'src/b.ts': 'v1' });
    assert.strictEqual(await fileChangedSince(repo, 'src/a.ts', T0), false);

    commitAt(repo, T0 + 50, { 'src/b.ts': 'v2' });
    assert.strictEqual(await fileChangedSince(repo, 'src/a.ts', T0), false, 'another file changed, not this one');
    assert.strictEqual(await fileChangedSince(repo, 'src/b.ts', T0), true);

    commitAt(repo, T0 + 100, { 'src/a.ts': 'v2' });
    assert.strictEqual(await fileChangedSince(repo, 'src/a.ts', T0), true);
    assert.strictEqual(await fileChangedSince(repo, path.join(repo, 'src', 'a.ts'), T0), true, 'absolute path');
    assert.strictEqual(await fileChangedSince(path.join(repo, 'src'), 'a.ts', T0), true, 'relative to a subfolder');
  });

  it('is false for a commit at exactly the checkpoint time', async () => {
    const repo = makeRepo();
    commitAt(repo, T0, { 'a.ts': 'v1' });
    assert.strictEqual(await fileChangedSince(repo, 'a.ts', T0), false);
    assert.strictEqual(await fileChangedSince(repo, 'a.ts', T0 - 1), true);
  });

  it('ignores uncommitted edits', async () => {
    const repo = makeRepo();
    commitAt(repo, T0 - 10, { 'a.ts': 'v1' });
    fs.writeFileSync(path.join(repo, 'a.ts'), 'edited, not committed');
    assert.strictEqual(await fileChangedSince(repo, 'a.ts', T0), false);
  });

  it('takes the path literally: [id] is not a glob, a leading "-" is not an option', async () => {
    const repo = makeRepo();
    commitAt(repo, T0 - 10, { 'app/[id]/page.tsx': 'v1', '-rf.md': 'v1' });
    commitAt(repo, T0 + 10, { 'app/i/page.tsx': 'v1' });
    assert.strictEqual(await fileChangedSince(repo, 'app/[id]/page.tsx', T0), false);
    assert.strictEqual(await fileChangedSince(repo, '-rf.md', T0), false);
    commitAt(repo, T0 + 20, { '-rf.md': 'v2' });
    assert.strictEqual(await fileChangedSince(repo, '-rf.md', T0), true);
  });

  it('is false, never a throw, for every failure', async () => {
    const plain = tempDir();
    const notARepo = (() => {
      try {
        git(plain, ['rev-parse', '--git-dir']);
        return false;
      } catch {
        return true;
      }
    })();
    if (notARepo) assert.strictEqual(await fileChangedSince(plain, 'a.ts', T0), false, 'not a repository');
    assert.strictEqual(await fileChangedSince(path.join(plain, 'missing'), 'a.ts', T0), false, 'no such folder');
    assert.strictEqual(await fileChangedSince(makeRepo(), 'a.ts', T0), false, 'no commits yet');

    const repo = makeRepo();
    commitAt(repo, T0 + 10, { 'a.ts': 'v1' });
    assert.strictEqual(await fileChangedSince(repo, '../outside.ts', T0), false, 'outside the work tree');
    assert.strictEqual(await fileChangedSince(repo, '', T0), false, 'no file');

    const saved = process.env.PATH;
    process.env.PATH = tempDir();
    try {
      assert.strictEqual(await fileChangedSince(repo, 'a.ts', T0), false, 'git missing');
    } finally {
      process.env.PATH = saved;
    }
    assert.strictEqual(await fileChangedSince(repo, 'a.ts', T0), true, 'the control: readable, it is true');
  });

  it('with enabled:false starts no process', async function () {
    if (process.platform === 'win32') this.skip();
    const repo = makeRepo();
    commitAt(repo, T0 + 10, { 'a.ts': 'v1' });
    const log = path.join(tempDir(), 'spawns.log');
    const bin = tempDir();
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho started >> '${log}'\necho ${T0 + 10}\n`, { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      assert.strictEqual(await fileChangedSince(repo, 'a.ts', T0, { enabled: false }), false);
      assert.strictEqual(fs.existsSync(log), false, 'a git process was started');
      assert.strictEqual(await fileChangedSince(repo, 'a.ts', T0), true, 'the control: the fake git answers');
      assert.strictEqual(fs.existsSync(log), true);
    } finally {
      process.env.PATH = saved;
    }
  });

  describe("FileHistory (the hover's cache)", () => {
    /** Runs `fn` with a `git` on PATH that logs each start, then runs the real git. */
    async function countingGit<T>(fn: (starts: () => number) => Promise<T>): Promise<T> {
      const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
      const bin = tempDir();
      const log = path.join(bin, 'starts.log');
      fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho x >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
      const saved = process.env.PATH;
      process.env.PATH = `${bin}${path.delimiter}${saved ?? ''}`;
      try {
        return await fn(() => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0));
      } finally {
        process.env.PATH = saved;
      }
    }

    it('asks git once per file until HEAD moves, then asks again', async function () {
      if (process.platform === 'win32') this.skip();
      const repo = makeRepo();
      commitAt(repo, T0 + 10, { 'a.ts': 'v1', 'b.ts': 'v1' });
      const history = new FileHistory();
      await countingGit(async (starts) => {
        assert.strictEqual(await history.lastCommitTime(repo, 'a.ts'), T0 + 10);
        const afterFirst = starts();
        for (let i = 0; i < 5; i++) assert.strictEqual(await history.lastCommitTime(repo, 'a.ts'), T0 + 10);
        assert.strictEqual(starts(), afterFirst, 'asked again with HEAD where it was: no git process');

        commitAt(repo, T0 + 20, { 'a.ts': 'v2' });
        assert.strictEqual(await history.lastCommitTime(repo, 'a.ts'), T0 + 20, 'a commit moved HEAD');
        git(repo, ['checkout', '-q', '-b', 'old', 'HEAD~1']);
        assert.strictEqual(await history.lastCommitTime(repo, 'a.ts'), T0 + 10, 'a checkout moved HEAD');
        git(repo, ['checkout', '-q', 'main']);
        git(repo, ['pack-refs', '--all']);
        commitAt(repo, T0 + 30, { 'a.ts': 'v3' });
        assert.strictEqual(await history.lastCommitTime(repo, 'a.ts'), T0 + 30, 'a commit after the refs were packed');
        git(repo, ['reset', '-q', '--hard', 'HEAD~1']);
        assert.strictEqual(await history.lastCommitTime(repo, 'a.ts'), T0 + 20, 'a reset moved HEAD');
        assert.strictEqual(await history.lastCommitTime(repo, 'b.ts'), T0 + 10, 'another file has its own answer');
      });
    });

    it('answers 0 and keeps asking outside a repository', async () => {
      const plain = tempDir();
      const history = new FileHistory();
      assert.strictEqual(await history.lastCommitTime(plain, 'a.ts'), 0);
      assert.strictEqual(await history.lastCommitTime(path.join(plain, 'missing'), 'a.ts'), 0);
      assert.strictEqual(await history.lastCommitTime(plain, ''), 0);
    });
  });
});
