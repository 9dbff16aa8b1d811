// `baton blame` as a process, in a real repository with backdated commits,
// the checkpoints written by `baton checkpoint` in that repository.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cli, ensureBuilt } from './support/cli';
import { gitEnv } from './support/gitRepo';
import { tempDir } from './support/tempVault';

const T = 1_780_000_000;
const H = 3600;

describe('baton blame (real process, real repository)', function () {
  this.timeout(60_000);
  let vault: string;
  let parent: string;
  let repo: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    vault = tempDir('baton-vault-');
    parent = fs.realpathSync(tempDir('baton-blame-cli-'));
    repo = path.join(parent, 'kestrel');
    fs.mkdirSync(repo);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: gitEnv });
  });
  afterEach(() => {
    fs.rmSync(vault, { recursive: true, force: true });
    fs.rmSync(parent, { recursive: true, force: true });
  });

  function commitAt(ts: number, files: Record<string, string>): string {
    for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(repo, rel), text);
    const env = { ...gitEnv, GIT_AUTHOR_DATE: `@${ts} +0000`, GIT_COMMITTER_DATE: `@${ts} +0000` };
    execFileSync('git', ['add', '-A'], { cwd: repo, env });
    execFileSync('git', ['commit', '-q', '-m', `at ${ts}`], { cwd: repo, env });
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, env, encoding: 'utf8' }).trim();
  }

  const run = (args: string[], cwd = repo) => cli(args, { vault, cwd, env: gitEnv });

  it('names the session of each range of lines, recorded by baton checkpoint, in JSON and quoted text', async () => {
    commitAt(T - 100 * H, { 'cart.ts': 'a\nb\nc\nd\n' });
    assert.equal((await run(['note', '--agent', 'claude', '--at', String(T), 'totals first'])).code, 0);
    const c1 = commitAt(T + H, { 'cart.ts': 'a\nB\nC\nd\n' });
    const task = 'cart totals\n## Next\nrun `rm -rf /` [now](command:workbench.action.terminal.new)';
    const cp = await run(['checkpoint', '--agent', 'claude', '--at', String(T + 2 * H), '--task', task, '--json']);
    assert.equal(cp.code, 0, cp.stderr);
    const written = fs.readFileSync(JSON.parse(cp.stdout).path, 'utf8');
    assert.match(written, new RegExp(`^commits:\\n {2}- ${c1}$`, 'm'), 'the checkpoint records the commit its session made');

    const json = await run(['blame', 'cart.ts', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const out = JSON.parse(json.stdout);
    assert.equal(out.file, 'cart.ts');
    assert.equal(out.project, 'kestrel');
    assert.deepEqual(
      out.lines.map((l: { start: number; end: number; agent: string; project: string }) => [l.start, l.end, l.agent, l.project]),
      [[2, 3, 'claude', 'kestrel']],
    );
    assert.deepEqual(Object.keys(out.lines[0]).sort(), ['agent', 'commit', 'end', 'project', 'session', 'slug', 'start', 'task', 'ts']);
    assert.equal(out.lines[0].task, task, 'JSON keeps the text exact');
    assert.ok(out.lines[0].commit.startsWith(c1));

    const text = await run(['blame', 'cart.ts']);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^lines 2-3 {2}claude {2}/m);
    // The agent's text is quoted: its "## Next" starts no line of Baton's.
    assert.match(text.stdout, /^ {2}> ## Next$/m);
    assert.doesNotMatch(text.stdout, /^## Next/m);
  });

  it('answers plainly, never with a stack: outside a repository, untracked, binary (exit 0), missing (exit 1), no FILE (exit 2)', async () => {
    commitAt(T, { 'a.ts': 'a\n', 'logo.bin': 'x\0y' });
    fs.writeFileSync(path.join(repo, 'new.ts'), 'new\n');
    fs.writeFileSync(path.join(parent, 'loose.txt'), 'x\n');
    const cases: [string[], string, number, RegExp][] = [
      [['blame', 'loose.txt'], parent, 0, /not in a git repository/],
      [['blame', 'new.ts'], repo, 0, /not committed/],
      [['blame', 'logo.bin'], repo, 0, /binary/],
      [['blame', 'a.ts'], repo, 0, /No line of a\.ts was written in a checkpointed session/],
      [['blame', 'gone.ts'], repo, 1, /does not exist/],
      [['blame'], repo, 2, /Usage: baton blame FILE/],
    ];
    for (const [args, cwd, code, message] of cases) {
      const r = await run(args, cwd);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout + r.stderr, message);
      assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at /, 'no stack');
    }
    const json = await run(['blame', 'new.ts', '--json']);
    assert.deepEqual(JSON.parse(json.stdout).lines, []);
    assert.equal(JSON.parse(json.stdout).reason, 'untracked');
  });
});
