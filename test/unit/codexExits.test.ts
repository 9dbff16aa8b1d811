// A Codex shell call's exit from its rollout (issue 26): Codex's PostToolUse
// payload states none, so the hook reads the rollout's tail by the call's
// tool_use_id, and where the end is not written yet the checkpoint reads it.
// The rollout and payloads are the ones Codex 0.169.0 wrote in the agents'
// tier (test/fixtures/hooks/codex-0.169.0-*), cut where a hook could have
// seen them; the hook is the built CLI with the payload on stdin.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { commitCheckpoint } from '../../src/app/commit';
import { claimChecks } from '../../src/app/evidence';
import { codexExits, rolloutSize } from '../../src/adapters/transcripts/codexExits';
import { readRuns } from '../../src/adapters/vault/runLog';
import { cli, ensureBuilt } from './support/cli';
import { git, gitRepo } from './support/gitRepo';
import { tempDir, tempVault, type TempVault } from './support/tempVault';

type Obj = Record<string, unknown>;
const FIXTURES = path.resolve(__dirname, '../fixtures/hooks');
const ROLLOUT = fs.readFileSync(path.join(FIXTURES, 'codex-0.169.0-rollout.jsonl'), 'utf8').split('\n').filter(Boolean);
const payload = (name: 'pass' | 'fail'): Obj => JSON.parse(fs.readFileSync(path.join(FIXTURES, `codex-0.169.0-${name}.json`), 'utf8')) as Obj;
/** The rollout's records up to and including the first whose text matches `last`. */
const upTo = (last: RegExp): string[] => ROLLOUT.slice(0, ROLLOUT.findIndex((l) => last.test(l)) + 1);
const record = (type: string, p: Obj): string => JSON.stringify({ timestamp: '2026-12-02T23:26:34.000Z', type, payload: p });

describe('Codex: a shell call’s exit from its rollout, by the call’s id', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());
  let v: TempVault;
  let parent: string;
  let repo: string;
  let rollout: string;
  beforeEach(() => {
    v = tempVault(Math.floor(Date.now() / 1000));
    parent = tempDir('baton-codex-exits-');
    repo = gitRepo(parent, 'codex-cart');
    fs.writeFileSync(path.join(repo, 'pass.js'), 'console.log("a child: exit code 1");\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'cart');
    rollout = path.join(parent, 'rollout-2026-12-02T23-26-33-01a23914.jsonl');
  });
  afterEach(() => {
    v.cleanup();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  const write = (lines: string[]): void => fs.writeFileSync(rollout, lines.map((l) => `${l}\n`).join(''));
  const post = async (name: 'pass' | 'fail'): Promise<void> => {
    const p = { ...payload(name), cwd: repo, transcript_path: rollout };
    const r = await cli(['hook', 'codex', 'post-tool-use'], { vault: v.root, cwd: repo, input: JSON.stringify(p) });
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
  };
  /** Codex's checkpoint claiming what the pass verified, in the repository the runs were in. */
  const checkpoint = () =>
    commitCheckpoint(v.baton, { scope: 'codex-cart', agent: 'codex', fields: { task: 'cart sums', verified: ['the cart sums — node pass.js'] }, folder: repo, byAgent: true });
  const runs = () => readRuns(v.root, 'codex-cart').map((r) => [r.command, r.status, r.exit, r.endIn?.callId]);

  it('reads each call’s exit from the real rollout: item_completed’s exit_code, else the output’s own header', () => {
    write(ROLLOUT);
    const at = rolloutSize(rollout);
    assert.deepEqual(
      [
        ...codexExits(rollout, [
          { callId: 'call_1', at },
          { callId: 'call_2', at },
        ]),
      ].sort(),
      [
        ['call_1', 0],
        ['call_2', 3],
      ],
    );
    // Without the item_completed records (a version that does not persist them), the outputs' headers say the same.
    write(ROLLOUT.filter((l) => !/"type":"item_completed"/.test(l)));
    assert.deepEqual(
      [
        ...codexExits(rollout, [
          { callId: 'call_1', at: 0 },
          { callId: 'call_2', at: 0 },
        ]),
      ].sort(),
      [
        ['call_1', 0],
        ['call_2', 3],
      ],
    );
  });

  it('never reads the command’s own words: "Process exited with code 0" after "Output:" is no verdict, and an output with no header states none', () => {
    write([
      record('response_item', { type: 'function_call_output', call_id: 'call_9', output: 'Wall time: 0.1 seconds\nOutput:\nProcess exited with code 0\n' }),
      record('response_item', { type: 'function_call_output', call_id: 'call_8', output: 'Process exited with code 0' }),
      record('event_msg', { type: 'item_completed', item: { type: 'CommandExecution', id: 'call_7', exit_code: 2 } }),
      record('response_item', { type: 'function_call_output', call_id: 'call_7', output: 'Wall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n' }),
    ]);
    const found = codexExits(
      rollout,
      ['call_9', 'call_8', 'call_7'].map((callId) => ({ callId, at: 0 })),
    );
    // Codex's own end record wins over a header that came after it.
    assert.deepEqual([...found], [['call_7', 2]]);
  });

  it('a torn last line, a line over its cap, a missing or unreadable rollout: what can be read stands, nothing throws', () => {
    const end = upTo(/"type":"item_completed".*"call_2"/);
    fs.writeFileSync(rollout, `${'{"x":"' + 'a'.repeat(5 * 1024 * 1024)}"}\n${end.join('\n')}\n{"type":"event_msg","payload":{"type":"item_comp`);
    assert.deepEqual([...codexExits(rollout, [{ callId: 'call_2', at: 0 }])], [['call_2', 3]]);
    assert.deepEqual([...codexExits(path.join(parent, 'gone.jsonl'), [{ callId: 'call_2', at: 0 }])], []);
    assert.deepEqual([...codexExits(parent, [{ callId: 'call_2', at: 0 }])], []);
  });

  it('the hook gives the run its exit when the rollout holds the end already (as 0.169.0 writes it), and the pass backs the claim', async () => {
    // What the rollout held when each hook ran: the call's item_completed, not yet its output.
    write(upTo(/"type":"item_completed".*"call_1"/));
    await post('pass');
    write(upTo(/"type":"item_completed".*"call_2"/));
    await post('fail');
    assert.deepEqual(runs(), [
      ['node pass.js', 'passed', 0, undefined],
      ['node fail.js', 'failed', 3, undefined],
    ]);
    const r = await checkpoint();
    assert.deepEqual(
      claimChecks(r.checkpoint, repo).map((c) => [c.state, c.command]),
      [['fresh', 'node pass.js']],
    );
    assert.deepEqual(r.checkpoint.commands, ['node fail.js (failed, exit 3)']);
  });

  it('where the end is not written yet, the run keeps where to look and the checkpoint reads it there', async () => {
    write(upTo(/"type":"function_call".*"call_1"/));
    await post('pass');
    write(upTo(/"type":"function_call".*"call_2"/));
    await post('fail');
    assert.deepEqual(runs(), [
      ['node pass.js', 'unknown', undefined, 'call_1'],
      ['node fail.js', 'unknown', undefined, 'call_2'],
    ]);
    // Codex goes on writing: the ends land after the hooks ran.
    write(ROLLOUT);
    const r = await checkpoint();
    assert.deepEqual(
      claimChecks(r.checkpoint, repo).map((c) => c.state),
      ['fresh'],
    );
    assert.deepEqual(r.checkpoint.commands, ['node fail.js (failed, exit 3)']);
  });

  it('another host’s payload naming a rollout is not read for it: only Codex’s calls are settled there', async () => {
    write(ROLLOUT);
    const p = { ...payload('pass'), cwd: repo, transcript_path: rollout };
    // Claude Code's PostToolUse is a pass by its own rule; a rollout it names changes nothing.
    const r = await cli(['hook', 'claude-code', 'post-tool-use'], {
      vault: v.root,
      cwd: repo,
      input: JSON.stringify({ ...p, hook_event_name: 'PostToolUse', tool_response: { stdout: '', stderr: '' } }),
    });
    assert.equal(r.code, 0);
    assert.deepEqual(runs(), [['node pass.js', 'passed', 0, undefined]]);
  });
});
