// The shared hand-over kept current (issue 28): a local checkpoint rewrites
// agent-thread/'s hand-over in the working tree and takes out the checkpoint
// files already pulled (only their very bytes); a failing refresh never fails
// the checkpoint; `baton thread status` says whether HEAD's hand-over is
// behind the vault. Built CLI, real repositories.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt } from './support/cli';
import { agentCheckpoint, cloudRemote, type CloudRemote } from './support/cloudRemote';
import { git, gitRepo } from './support/gitRepo';

interface StatusJson {
  folder: string;
  project: string;
  committed: string;
  workingTree: string;
  checkpoints: { pulled: number; unpulled: number; refused: number; inWorkingTree: number };
}

describe('baton thread: the hand-over refreshed by checkpoints, and its status (built CLI, real repositories)', function () {
  this.timeout(180_000);
  let t: CloudRemote;
  before(() => ensureBuilt());
  beforeEach(async () => {
    t = await cloudRemote();
  });
  afterEach(() => t.cleanup());

  const checkpoint = async (task: string, cwd = t.repo, more: string[] = []): Promise<void> => {
    const r = await t.run(['checkpoint', '--task', task, '--next', 'go on', ...more], cwd);
    assert.equal(r.code, 0, r.stderr);
  };
  const status = async (): Promise<StatusJson> => {
    const r = await t.run(['thread', 'status', '--json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as StatusJson;
  };
  const exists = (rel: string): boolean => fs.existsSync(path.join(t.repo, rel));

  it('a local checkpoint rewrites HANDOVER.md and the session-start files, and prunes the pulled files whose bytes are unchanged', async () => {
    t.agentPushes('copilot/a', {
      '20261202-171500-copilot.md': agentCheckpoint('pulled and unchanged', "\n## Didn't work\n\n- polling the cart total: too slow\n"),
      '20261202-171600-copilot.md': agentCheckpoint('pulled, then edited by the person'),
    });
    t.fetch();
    assert.equal((await t.pullJson()).imported.length, 2);
    git(t.repo, 'merge', '-q', '--ff-only', 'origin/copilot/a');
    const edited = 'agent-thread/checkpoints/20261202-171600-copilot.md';
    fs.appendFileSync(path.join(t.repo, edited), '\nA line of the person.\n');
    // One the vault has not pulled: the person's or an agent's, not Baton's to take out.
    const unpulled = 'agent-thread/checkpoints/20261203-080000-codex.md';
    fs.writeFileSync(path.join(t.repo, unpulled), agentCheckpoint('not pulled'));
    const readme = t.read('agent-thread/README.md');

    await checkpoint('wire the toggle locally');
    const handover = t.read('agent-thread/HANDOVER.md');
    assert.match(handover, /^# Hand-over — kestrel\n/);
    assert.match(handover, /wire the toggle locally/);
    assert.match(handover, /> - polling the cart total: too slow/, "the pulled checkpoint's dead end is in the thread");
    assert.match(t.read('agent-thread/session-start.md'), /wire the toggle locally/);
    assert.match(t.read('agent-thread/session-start.json'), /wire the toggle locally/);
    assert.equal(t.read('agent-thread/README.md'), readme);
    assert.equal(exists('agent-thread/checkpoints/20261202-171500-copilot.md'), false, 'pruned');
    assert.equal(exists(edited), true, "the person's edit keeps it");
    assert.equal(exists(unpulled), true);
    assert.deepEqual(
      git(t.repo, 'status', '--porcelain')
        .split('\n')
        .map((l) => l.trim())
        .sort(),
      [
        '?? agent-thread/checkpoints/20261203-080000-codex.md',
        'D agent-thread/checkpoints/20261202-171500-copilot.md',
        'M agent-thread/HANDOVER.md',
        'M agent-thread/checkpoints/20261202-171600-copilot.md',
        'M agent-thread/session-start.json',
        'M agent-thread/session-start.md',
      ],
    );
    // The refresh is the same bytes enable writes.
    const enabled = await t.enable();
    assert.deepEqual(enabled.written, []);
  });

  it('writes nothing for another project, nor in a repository without the folder; a refresh that fails leaves the checkpoint written', async () => {
    const before = t.read('agent-thread/HANDOVER.md');
    await checkpoint('elsewhere', t.repo, ['--project', 'other']);
    assert.equal(t.read('agent-thread/HANDOVER.md'), before);
    assert.equal(git(t.repo, 'status', '--porcelain'), '');

    const plain = gitRepo(t.base, 'plain');
    await checkpoint('no thread here', plain);
    assert.equal(git(plain, 'status', '--porcelain'), '');
    assert.equal(fs.existsSync(path.join(plain, 'agent-thread')), false);

    // A folder where a file should be: the write fails, the checkpoint stands.
    fs.rmSync(path.join(t.repo, 'agent-thread/session-start.md'));
    fs.mkdirSync(path.join(t.repo, 'agent-thread/session-start.md'));
    const failed = await t.run(['checkpoint', '--task', 'refresh cannot write', '--json']);
    assert.equal(failed.code, 0, failed.stderr);
    assert.match((JSON.parse(failed.stdout) as { thread: { error: string } }).thread.error, /./);
    const sessions = await t.run(['sessions', 'kestrel', '--json']);
    assert.match(sessions.stdout, /refresh cannot write/);
  });

  it('status: current after enable is committed, behind once the vault moves on, current again after a checkpoint and a commit', async () => {
    assert.deepEqual(await status(), {
      folder: 'agent-thread',
      project: 'kestrel',
      committed: 'current',
      workingTree: 'current',
      checkpoints: { pulled: 0, unpulled: 0, refused: 0, inWorkingTree: 0 },
    });
    t.agentPushes('codex/b', { '20261202-171500-codex.md': agentCheckpoint('limiter'), 'notes.md': 'x' });
    t.fetch();
    assert.deepEqual((await status()).checkpoints, { pulled: 0, unpulled: 1, refused: 1, inWorkingTree: 0 });
    await t.pullJson();
    const pulled = await status();
    assert.equal(pulled.committed, 'behind');
    assert.equal(pulled.workingTree, 'behind');
    assert.deepEqual(pulled.checkpoints, { pulled: 1, unpulled: 0, refused: 1, inWorkingTree: 0 });
    const human = await t.run(['thread', 'status']);
    assert.match(human.stdout, /the committed hand-over is behind the vault/);

    await checkpoint('after the pull');
    const refreshed = await status();
    assert.equal(refreshed.committed, 'behind');
    assert.equal(refreshed.workingTree, 'current');
    git(t.repo, 'commit', '-q', '-am', 'hand-over');
    assert.equal((await status()).committed, 'current');
  });

  it('status and pull outside a shared thread are refused with what to do', async () => {
    const plain = gitRepo(t.base, 'plain');
    for (const action of ['status', 'pull']) {
      const r = await t.run(['thread', action], plain);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, /not shared in .*baton thread enable first/);
    }
  });
});
