import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

describe('the baton CLI (real process, real vault)', function () {
  this.timeout(60_000);
  let vault: string;
  let work: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    vault = tempDir('baton-vault-');
    work = tempDir('baton-work-');
  });
  afterEach(() => {
    fs.rmSync(vault, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('notes, checkpoints with every flag, and returns the contract JSON', async () => {
    assert.equal((await cli(['note', '--project', 'kestrel', '--agent', 'claude', 'tried', 'the', 'mock'], { vault })).code, 0);
    const r = await cli(
      [
        'checkpoint',
        '--project',
        'kestrel',
        '--agent',
        'claude',
        '--task',
        'fix: checkout',
        '--intent',
        'revenue',
        '--state',
        'half',
        '--next',
        'wire it',
        '--decided',
        'd1',
        '--failed',
        'f1',
        '--failed',
        'f2',
        '--verified',
        'v1',
        '--blocker',
        'b1',
        '--ran',
        'npm test',
        '--question',
        'q1',
        '--file',
        'src/a.ts',
        '--handoff',
        'cursor',
        '--json',
      ],
      { vault },
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out).sort(), ['path', 'redactions', 'session', 'slug']);
    assert.equal(out.slug, `sessions/kestrel/${out.session}`);
    assert.ok(fs.existsSync(out.path));

    const s = await cli(['sessions', 'kestrel', '--json'], { vault });
    const view = JSON.parse(s.stdout);
    assert.deepEqual(Object.keys(view).sort(), ['abandoned', 'checkpoints', 'othersWorking', 'project', 'uncommitted']);
    const [cp] = view.checkpoints;
    assert.deepEqual(Object.keys(cp).sort(), [
      'agent',
      'autoClosed',
      'blockers',
      'commands',
      'decisions',
      'failed',
      'files',
      'git',
      'handoffTo',
      'intent',
      'next',
      'project',
      'questions',
      'session',
      'slug',
      'state',
      'task',
      'ts',
      'verified',
    ]);
    assert.equal(cp.task, 'fix: checkout');
    assert.deepEqual(cp.failed, ['f1', 'f2']);
    assert.equal(cp.handoffTo, 'cursor');
    assert.equal(cp.state, 'half\n\nRecorded during the session:\n- tried the mock');
    assert.deepEqual(Object.keys(cp.git).sort(), ['branch', 'commit', 'dirty', 'files', 'subject']);
    assert.deepEqual(view.uncommitted, []);

    const resume = JSON.parse((await cli(['resume', 'kestrel', '--json'], { vault })).stdout);
    assert.equal(resume.latest.session, out.session);
    const text = (await cli(['resume', 'kestrel'], { vault })).stdout;
    assert.match(text, /Didn't work/);
    assert.match(text, /f1/);
  });

  it('fills empty fields from markdown on stdin, flags winning', async () => {
    const md = "## Task\n\nfrom stdin\n\n## Didn't work\n\n- stdin dead end\n\n## Next\n\nstdin next\n";
    const r = await cli(['checkpoint', '-p', 'kestrel', '--next', 'flag next', '--json'], { vault, input: md });
    assert.equal(r.code, 0, r.stderr);
    const [cp] = JSON.parse((await cli(['sessions', 'kestrel', '--json'], { vault })).stdout).checkpoints;
    assert.equal(cp.task, 'from stdin');
    assert.deepEqual(cp.failed, ['stdin dead end']);
    assert.equal(cp.next, 'flag next');
    assert.equal(cp.agent, 'cli');
  });

  it('exits 2 on usage errors and 1 on refusals, saying what to do', async () => {
    const unknown = await cli(['frobnicate'], { vault });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown command "frobnicate"/);
    const badFlag = await cli(['note', '--bogus', 'x', '-p', 'k'], { vault });
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /Usage: baton note/);
    const badTime = await cli(['note', '-p', 'k', '--at', 'yesterday', 'x'], { vault });
    assert.equal(badTime.code, 2);
    assert.match(badTime.stderr, /RFC 3339/);
    const empty = await cli(['checkpoint', '-p', 'kestrel'], { vault });
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /Nothing to checkpoint/);
    const emoji = await cli(['note', '-p', '🚀', 'x'], { vault });
    assert.equal(emoji.code, 1);
    assert.match(emoji.stderr, /has no letters or digits to make a filename from/);
    const handoff = await cli(['handoff', '-p', 'k', '--task', 't'], { vault });
    assert.equal(handoff.code, 2);
    assert.equal((await cli(['--version'], { vault })).stdout.trim(), '0.1.0');
  });

  it('back-dates with --at (RFC 3339 or unix seconds) and closes an abandoned session', async () => {
    assert.equal((await cli(['note', '-p', 'kestrel', '-a', 'cursor', '--at', '2026-01-01T00:00:00Z', 'old work'], { vault })).code, 0);
    const view = JSON.parse((await cli(['sessions', 'kestrel', '--json'], { vault })).stdout);
    assert.equal(view.uncommitted[0].ts, 1767225600);
    const [a] = view.abandoned;
    assert.equal(a.session, '20260101-000000-cursor');
    const closed = await cli(['sessions', 'kestrel', '--close', a.session, '--json'], { vault });
    assert.equal(closed.code, 0, closed.stderr);
    assert.equal(JSON.parse(closed.stdout).autoClosed, true);
    const again = await cli(['sessions', 'kestrel', '--close', a.session], { vault });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already closed/);
  });

  it('names the project from the folder, a marker file, or the main worktree of a linked one', async () => {
    const repo = path.join(work, 'Kestrel App');
    fs.mkdirSync(repo);
    const git = (...a: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a');
    git('add', '.');
    git('commit', '-qm', 'first');
    git('worktree', 'add', '-q', path.join(work, 'feature-x'));
    assert.equal((await cli(['project-name'], { vault, cwd: repo })).stdout.trim(), 'kestrel-app');
    assert.equal((await cli(['project-name'], { vault, cwd: path.join(work, 'feature-x') })).stdout.trim(), 'kestrel-app/feature-x');
    fs.writeFileSync(path.join(repo, '.baton-project'), '# comment\n\nPhoenix\n');
    assert.equal((await cli(['project-name'], { vault, cwd: repo })).stdout.trim(), 'phoenix');

    // git state is read from the current folder, whatever project is named
    fs.writeFileSync(path.join(repo, 'dirty.txt'), 'x');
    const r = await cli(['checkpoint', '-p', 'elsewhere', '--task', 't', '--json'], { vault, cwd: repo });
    const text = fs.readFileSync(JSON.parse(r.stdout).path, 'utf8');
    assert.match(text, /^branch: main$/m);
    assert.match(text, /^commit_subject: first$/m);
    assert.match(text, /^uncommitted: 2$/m);
  });

  it('plans: text on stdin, listed newest first, never in history', async () => {
    assert.equal((await cli(['plan', '-p', 'kestrel', '-a', 'claude', '--at', '100'], { vault, input: 'step one\nstep two\n' })).code, 0);
    assert.equal((await cli(['plan', '-p', 'kestrel', '-a', 'claude', '--at', '200'], { vault, input: 'later plan' })).code, 0);
    const plans = JSON.parse((await cli(['plans', 'kestrel', '--json'], { vault })).stdout);
    assert.deepEqual(
      plans.map((p: { text: string }) => p.text),
      ['later plan', 'step one\nstep two'],
    );
    assert.deepEqual(Object.keys(plans[0]).sort(), ['agent', 'project', 'slug', 'text', 'title', 'ts']);
    assert.deepEqual(JSON.parse((await cli(['sessions', 'kestrel', '--json'], { vault })).stdout).checkpoints, []);
  });

  it('continuity and why and index answer in the contract shapes', async () => {
    await cli(['checkpoint', '-p', 'kestrel', '--task', 't', '--file', 'src/x.ts'], { vault });
    const c = JSON.parse((await cli(['continuity', '--json'], { vault })).stdout);
    assert.deepEqual(Object.keys(c[0]).sort(), ['abandoned', 'checkpoints', 'lastAgent', 'lastCheckpoint', 'project', 'quiet', 'uncommitted']);
    const w = JSON.parse((await cli(['why', 'x.ts', '--json'], { vault })).stdout);
    assert.deepEqual(Object.keys(w[0]).sort(), ['agent', 'matched', 'project', 'session', 'slug', 'task', 'ts']);
    const i = JSON.parse((await cli(['index', '--json'], { vault })).stdout);
    assert.deepEqual(i, { restored: 0, rescued: 0, checkpoints: 1 });
  });
});
