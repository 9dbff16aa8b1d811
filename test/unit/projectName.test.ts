import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { projectNameOf, scopeOf } from '../../src/adapters/git/projectName';
import { git } from './support/gitRepo';

describe('projectNameOf', () => {
  const temps: string[] = [];
  // Every case passes a home of its own, so a marker or repository in the real
  // home cannot leak in, and the "home" rule is exercised on a known folder.
  let home: string;

  function tempDir(): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'baton-project-')));
    temps.push(dir);
    return dir;
  }

  /** `<root>/<rel>` created with its parents. */
  function folder(root: string, rel: string): string {
    const dir = path.join(root, rel);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  function makeRepo(dir: string): string {
    fs.mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(dir, 'readme.md'), 'x\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'first');
    return dir;
  }

  beforeEach(() => {
    home = tempDir();
  });

  after(() => {
    for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names a plain folder after itself', () => {
    const dir = folder(tempDir(), 'Kestrel One');
    assert.deepStrictEqual(projectNameOf(dir, home), { project: 'Kestrel One', worktree: '' });
    assert.strictEqual(scopeOf(dir, home), 'Kestrel One');
  });

  it('gives names in NFC whether the folder, marker or worktree spelled them composed or decomposed (macOS writes NFD)', () => {
    const nfd = 'cafe\u0301';
    const nfc = 'caf\u00e9';
    assert.deepStrictEqual(projectNameOf(folder(tempDir(), nfd), home), { project: nfc, worktree: '' });
    const marked = tempDir();
    fs.writeFileSync(path.join(marked, '.baton-project'), `${nfd}\n`);
    assert.strictEqual(projectNameOf(marked, home)?.project, nfc);
    const repo = makeRepo(path.join(tempDir(), nfd));
    const wt = path.join(path.dirname(repo), `wt-${nfd}`);
    git(repo, 'worktree', 'add', '-q', '-b', 'nfd', wt);
    assert.deepStrictEqual(projectNameOf(wt, home), { project: nfc, worktree: `wt-${nfc}` });
  });

  it('takes the first line of a .baton-project that is neither blank nor a comment, from an ancestor', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, '.baton-project'), '# the project this folder belongs to\n\n   \n#another\n  Kestrel  \nignored\n');
    const dir = folder(root, 'deep/er/src');
    assert.deepStrictEqual(projectNameOf(dir, home), { project: 'Kestrel', worktree: '' });
  });

  it('reads a .logos-project and prefers .baton-project beside it', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, '.logos-project'), 'osprey\r\n');
    assert.strictEqual(projectNameOf(root, home)?.project, 'osprey');
    fs.writeFileSync(path.join(root, '.baton-project'), 'kestrel\n');
    assert.strictEqual(projectNameOf(root, home)?.project, 'kestrel');
  });

  it('skips a marker with only comments and takes the nearest useful one', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, '.baton-project'), 'outer\n');
    const inner = folder(root, 'inner');
    fs.writeFileSync(path.join(inner, '.baton-project'), '# nothing yet\n\n');
    assert.strictEqual(projectNameOf(inner, home)?.project, 'outer');
  });

  it('ignores a marker that is not a regular file (a FIFO would block a hook forever)', function () {
    if (process.platform === 'win32') this.skip();
    const dir = folder(tempDir(), 'fifo-project');
    execFileSync('mkfifo', [path.join(dir, '.baton-project')]);
    assert.deepStrictEqual(projectNameOf(dir, home), { project: 'fifo-project', worktree: '' });
  });

  it('names every folder of a repository after its main worktree', () => {
    const repo = makeRepo(path.join(tempDir(), 'kestrel'));
    const dir = folder(repo, 'src/deep');
    assert.deepStrictEqual(projectNameOf(dir, home), { project: 'kestrel', worktree: '' });
  });

  it('names a linked worktree after the main one, with the worktree as sub-scope', () => {
    const root = tempDir();
    const repo = makeRepo(path.join(root, 'kestrel'));
    const wt = path.join(root, 'kestrel-pricing');
    git(repo, 'worktree', 'add', '-q', '-b', 'pricing', wt);
    const dir = folder(wt, 'src');
    assert.deepStrictEqual(projectNameOf(dir, home), { project: 'kestrel', worktree: 'kestrel-pricing' });
    assert.strictEqual(scopeOf(dir, home), 'kestrel/kestrel-pricing');
    assert.strictEqual(scopeOf(repo, home), 'kestrel');
  });

  it('keeps the worktree sub-scope under a marker-named project', () => {
    const root = tempDir();
    const repo = makeRepo(path.join(root, 'checkout'));
    fs.writeFileSync(path.join(root, '.baton-project'), 'Kestrel\n');
    const wt = path.join(root, 'wt-a');
    git(repo, 'worktree', 'add', '-q', '-b', 'a', wt);
    assert.deepStrictEqual(projectNameOf(wt, home), { project: 'Kestrel', worktree: 'wt-a' });
    assert.deepStrictEqual(projectNameOf(repo, home), { project: 'Kestrel', worktree: '' });
  });

  it('names worktrees of a bare repository after it, without ".git"', () => {
    const root = tempDir();
    const src = makeRepo(path.join(root, 'src-repo'));
    const bare = path.join(root, 'kestrel.git');
    git(root, 'clone', '-q', '--bare', src, bare);
    const wt = path.join(root, 'kestrel-main');
    git(bare, 'worktree', 'add', '-q', wt, 'main');
    assert.deepStrictEqual(projectNameOf(wt, home), { project: 'kestrel', worktree: 'kestrel-main' });
  });

  it('treats a .git file without commondir (a submodule) as its own main worktree', () => {
    const root = tempDir();
    const sub = folder(root, 'super/libs/widget');
    const modules = folder(root, 'super/.git/modules/widget');
    fs.writeFileSync(path.join(sub, '.git'), `gitdir: ${path.relative(sub, modules)}\n`);
    assert.deepStrictEqual(projectNameOf(folder(sub, 'src'), home), { project: 'widget', worktree: '' });
  });

  it('refuses the home folder and /', () => {
    assert.strictEqual(projectNameOf(home, home), null);
    assert.strictEqual(projectNameOf(home + path.sep, home), null);
    assert.strictEqual(projectNameOf(path.parse(home).root, home), null);
    assert.strictEqual(scopeOf(home, home), null);
  });

  it('does not name folders after a home that is itself a repository (dotfiles)', () => {
    makeRepo(home);
    const dir = folder(home, 'notes');
    assert.deepStrictEqual(projectNameOf(dir, home), { project: 'notes', worktree: '' });
  });

  it('needs no git at all', () => {
    const repo = makeRepo(path.join(tempDir(), 'kestrel'));
    const saved = process.env.PATH;
    process.env.PATH = tempDir();
    try {
      assert.strictEqual(scopeOf(repo, home), 'kestrel');
    } finally {
      process.env.PATH = saved;
    }
  });
});
