// Evidence that expires (issue 26): shell runs recorded by the hooks from each
// host's own payload shape, Verified claims linked to them at checkpoint with
// the covered files' hashes, judged fresh or stale against the working tree,
// failures nobody fixed listed in Commands run. Real git repositories, a real
// vault, the hook door run in process on the payload as the host sends it.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { commitCheckpoint } from '../../src/app/commit';
import { claimChecks } from '../../src/app/evidence';
import { resume } from '../../src/app/resume';
import { startText } from '../../src/app/agentHooks';
import { readRuns } from '../../src/adapters/vault/runLog';
import { EVIDENCE_KEY, evidenceOf } from '../../src/core/evidence';
import { renderHandover } from '../../src/core/handover';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, cli, ensureBuilt } from './support/cli';
import { git, gitRepo } from './support/gitRepo';
import { tempDir, tempVault, type TempVault } from './support/tempVault';

type Obj = Record<string, unknown>;

describe('evidence: runs from the hooks, claims linked at checkpoint, fresh or stale', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());
  let v: TempVault;
  let repo: string;
  let parent: string;
  beforeEach(() => {
    v = tempVault(Math.floor(Date.now() / 1000));
    parent = tempDir('baton-evidence-');
    repo = gitRepo(parent, 'kestrel');
    fs.mkdirSync(path.join(repo, 'src'));
    fs.writeFileSync(path.join(repo, 'src', 'auth.ts'), 'export const ttl = 60;\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'auth');
  });
  afterEach(() => {
    v.cleanup();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  // The hook as the host runs it: the built CLI, the payload on stdin.
  const post = async (agent: string, payload: Obj): Promise<void> => {
    const r = await cli(['hook', agent, 'post-tool-use'], { vault: v.root, cwd: repo, input: JSON.stringify(payload) });
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
  };
  const runs = () => readRuns(v.root, 'kestrel');
  const head = (): string => git(repo, 'rev-parse', 'HEAD');

  // Claude Code: PostToolUse only for a Bash that succeeded; PostToolUseFailure (error "Exit code N") when it did not.
  const claudeBash = (command: string, ok = true, exit = 1): Obj => ({
    session_id: 's-1',
    transcript_path: '',
    cwd: repo,
    permission_mode: 'default',
    hook_event_name: ok ? 'PostToolUse' : 'PostToolUseFailure',
    tool_name: 'Bash',
    tool_input: { command, description: 'Run the tests' },
    tool_use_id: 'toolu_01',
    ...(ok ? { tool_response: { stdout: 'ok\n', stderr: '', interrupted: false, isImage: false } } : { error: `Exit code ${exit}\nFAIL src/auth.test.ts`, is_interrupt: false }),
  });

  it('records a run from each host’s own payload: command, exit, duration where given, HEAD, dirtiness', async () => {
    await post('claude-code', claudeBash('npm test -- auth'));
    await post('claude-code', claudeBash('npm test -- cart', false));
    // Codex PostToolUse (codex-rs/hooks/src/schema.rs PostToolUseCommandInput): tool_name "Bash", a tool_response value;
    // 0.169.0 sends the command's output alone (test/fixtures/hooks/codex-*.json), so these words are the command's, no exit of Codex's.
    await post('codex', {
      session_id: 'c-1',
      turn_id: 't-1',
      transcript_path: null,
      cwd: repo,
      hook_event_name: 'PostToolUse',
      model: 'gpt-5',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'cargo test' },
      tool_response: 'Wall time: 1.5 seconds\nProcess exited with code 0\nOutput:\nok',
      tool_use_id: 'call-1',
    });
    // Gemini CLI AfterTool: run_shell_command, tool_response {llmContent, returnDisplay}.
    await post('gemini', {
      session_id: 'g-1',
      transcript_path: '',
      cwd: repo,
      hook_event_name: 'AfterTool',
      timestamp: '2026-12-02T10:00:00Z',
      tool_name: 'run_shell_command',
      tool_input: { command: 'pytest -q', description: 'tests' },
      tool_response: { llmContent: 'Command: pytest -q\nOutput: 1 failed\nExit Code: 1', returnDisplay: '1 failed' },
    });
    // Copilot CLI postToolUse: camelCase, toolArgs as JSON text, toolResult {resultType, textResultForLlm}.
    fs.writeFileSync(path.join(repo, 'src', 'auth.ts'), 'export const ttl = 61;\n');
    await post('copilot', {
      sessionId: 'p-1',
      timestamp: 1764669600000,
      cwd: repo,
      toolName: 'bash',
      toolArgs: JSON.stringify({ command: 'go test ./...', description: 'tests' }),
      toolResult: { resultType: 'success', textResultForLlm: 'ok\n<exited with exit code 0>' },
    });
    // Not a shell: nothing recorded.
    await post('claude-code', { ...claudeBash('x'), tool_name: 'Read', tool_input: { file_path: 'src/auth.ts' } });

    const got = runs().map((r) => [r.agent, r.command, r.status, r.exit, r.durationMs, r.head === head(), r.dirty]);
    assert.deepEqual(got, [
      ['claude-code', 'npm test -- auth', 'passed', 0, undefined, true, false],
      ['claude-code', 'npm test -- cart', 'failed', 1, undefined, true, false],
      ['codex', 'cargo test', 'unknown', undefined, undefined, true, false],
      ['gemini', 'pytest -q', 'failed', 1, undefined, true, false],
      ['copilot', 'go test ./...', 'passed', 0, undefined, true, true],
    ]);
    assert.equal(runs()[0].agentSession, 's-1');
  });

  it('masks a secret in a command before it reaches disk', async () => {
    const secret = 'whsec' + '_' + 'aB3dE5gH7jK9mN1p';
    await post('claude-code', claudeBash(`STRIPE_WEBHOOK_SECRET=${secret} npm test -- webhooks`));
    const file = fs.readdirSync(path.join(v.root, '.baton-live', 'runs'));
    const text = fs.readFileSync(path.join(v.root, '.baton-live', 'runs', file[0]), 'utf8');
    assert.ok(!text.includes(secret), text);
    assert.match(runs()[0].command, /\[REDACTED\] npm test -- webhooks$/);
  });

  const checkpoint = async (fields: Obj, extra: Obj = {}) =>
    commitCheckpoint(v.baton, { scope: 'kestrel', agent: 'claude-code', fields: { task: 'token expiry', ...fields }, folder: repo, byAgent: true, ...extra });

  it('a claim is fresh at checkpoint, stale after a saved edit of a covered file, and its hand-over says so; the body stays as written', async () => {
    fs.writeFileSync(path.join(repo, 'src', 'auth.ts'), 'export const ttl = 30;\n');
    await post('claude-code', claudeBash('npm test -- auth'));
    const r = await checkpoint({ verified: ['rejects expired tokens — npm test -- auth'], files: ['src/auth.ts'] });
    const text = fs.readFileSync(r.path, 'utf8');
    assert.match(text, /## Verified\n\n- rejects expired tokens — npm test -- auth\n/);
    const ev = evidenceOf(r.checkpoint);
    assert.ok(ev);
    assert.deepEqual(Object.keys(ev.files), ['src/auth.ts']);
    assert.equal(ev.claims[0].command, 'npm test -- auth');
    assert.equal(ev.claims[0].exit, 0);
    assert.equal(ev.claims[0].commit, head().slice(0, 7));
    assert.deepEqual(
      claimChecks(r.checkpoint, repo).map((c) => [c.state, c.changed]),
      [['fresh', []]],
    );

    // An unsaved edit is no edit of the file; a saved one is, committed or not.
    fs.writeFileSync(path.join(repo, 'src', 'auth.ts'), 'export const ttl = 31;\n');
    const latest = await v.baton.latest('kestrel');
    assert.ok(latest);
    assert.deepEqual(
      claimChecks(latest, repo).map((c) => [c.state, c.changed]),
      [['stale', ['src/auth.ts']]],
    );
    const view = await resume(v.baton, 'kestrel', { agent: 'cli', via: 'cli', now: v.clock.now(), folder: repo });
    const out = renderHandover(view, v.clock.now());
    assert.match(out, /1\. stale: verified at [0-9a-f]{7} by "npm test -- auth"; 1 of its 1 file\(s\) changed since \(src\/auth\.ts\): re-run before relying on it/);
    const start = startText('kestrel', view, v.clock.now());
    assert.match(start, /stale: verified at [0-9a-f]{7} by "npm test -- auth"/);
    assert.ok(start.length <= 800 * 4, `${start.length}`);
  });

  it('a claim with no passing run is unbacked; a failure not fixed is listed with its status in Commands run', async () => {
    await post('claude-code', claudeBash('npm test -- cart', false));
    await post('claude-code', claudeBash('npm run lint', false));
    await post('claude-code', claudeBash('npm run lint'));
    await post('claude-code', claudeBash('npm run typecheck', false, 2));
    const r = await checkpoint({ verified: ['cart totals round half-up — npm test -- cart', 'checked by hand'], commands: ['npm test -- cart'] });
    assert.deepEqual(
      claimChecks(r.checkpoint, repo).map((c) => c.state),
      ['unbacked', 'unbacked'],
    );
    // The one the agent listed gets its status; the one it left out is added; the one run green again is not listed.
    assert.deepEqual(r.checkpoint.commands, ['npm test -- cart (failed, exit 1)', 'npm run typecheck (failed, exit 2)']);
    assert.match(fs.readFileSync(r.path, 'utf8'), /## Commands run\n\n- npm test -- cart \(failed, exit 1\)\n- npm run typecheck \(failed, exit 2\)\n/);
  });

  it('a claim in a project where no run was ever recorded (an agent without hooks) is unbacked, its named files hashed', async () => {
    const r = await checkpoint({ verified: ['rejects expired tokens — npm test -- auth'], files: ['src/auth.ts (ttl)'] });
    const ev = evidenceOf(r.checkpoint);
    assert.deepEqual(ev?.claims, [{ claim: 'rejects expired tokens — npm test -- auth', unbacked: true }]);
    assert.deepEqual(Object.keys(ev?.files ?? {}), ['src/auth.ts']);
    assert.match(ev?.files['src/auth.ts'] ?? '', /^sha256:[0-9a-f]{16}$/);
  });

  it('a covered file saved after the run and before the checkpoint makes the claim stale from the start', async () => {
    await post('claude-code', claudeBash('npm test -- auth'));
    fs.writeFileSync(path.join(repo, 'src', 'auth.ts'), 'export const ttl = 45;\n');
    const later = runs()[0].ts + 5;
    fs.utimesSync(path.join(repo, 'src', 'auth.ts'), later, later);
    const r = await checkpoint({ verified: ['rejects expired tokens — npm test -- auth'], files: ['src/auth.ts'] });
    assert.deepEqual(evidenceOf(r.checkpoint)?.claims[0].changed, ['src/auth.ts']);
    assert.deepEqual(
      claimChecks(r.checkpoint, repo).map((c) => [c.state, c.changed]),
      [['stale', ['src/auth.ts']]],
    );
  });

  it('links a claim that quotes a command without a dash to its latest passing run', async () => {
    await post('claude-code', claudeBash('cd . && npm test -- auth'));
    const r = await checkpoint({ verified: ['`npm test -- auth` passes on the new expiry'] });
    assert.equal(evidenceOf(r.checkpoint)?.claims[0].command, 'cd . && npm test -- auth');
    // A command it does not name (a prefix of one word, not a whole part) backs nothing.
    const other = await checkpoint({ verified: ['`npm test -- au` passes'] });
    assert.equal(evidenceOf(other.checkpoint)?.claims[0].unbacked, true);
    const r2 = await checkpoint({ verified: ['expiry holds - npm test -- auth'] });
    assert.equal(evidenceOf(r2.checkpoint)?.claims[0].command, 'cd . && npm test -- auth');
  });

  it('baton verify: stale after an edit, fresh again after --run, which writes a new checkpoint and leaves the old file as it was', async () => {
    const cmd = 'grep -q ttl src/auth.ts';
    await post('claude-code', claudeBash(cmd));
    const first = await checkpoint({ verified: [`ttl is exported — ${cmd}`, 'reviewed by hand'], files: ['src/auth.ts'] });
    const before = fs.readFileSync(first.path, 'utf8');
    const verify = async (...args: string[]) => {
      const r = await cli(['verify', '--json', ...args], { vault: v.root, cwd: repo });
      return { code: r.code, rows: JSON.parse(r.stdout) as Obj[], err: r.stderr };
    };
    const fresh = await verify();
    assert.deepEqual(
      fresh.rows.map((r) => [r.project, r.session, r.claim, r.state, r.command, r.exit, r.commit, r.files, r.changed]),
      [
        ['kestrel', first.checkpoint.session, `ttl is exported — ${cmd}`, 'fresh', cmd, 0, head().slice(0, 7), ['src/auth.ts'], []],
        ['kestrel', first.checkpoint.session, 'reviewed by hand', 'unbacked', '', null, '', ['src/auth.ts'], []],
      ],
    );
    fs.writeFileSync(path.join(repo, 'src', 'auth.ts'), 'export const ttl = 90;\n');
    assert.deepEqual(
      (await verify()).rows.map((r) => [r.state, r.changed]),
      [
        ['stale', ['src/auth.ts']],
        ['unbacked', []],
      ],
    );
    v.advance(1);
    const rerun = await verify('--run');
    assert.equal(rerun.code, 0, rerun.err);
    assert.deepEqual(
      rerun.rows.map((r) => [r.state, r.changed, r.session === first.checkpoint.session]),
      [
        ['fresh', [], false],
        ['unbacked', [], false],
      ],
    );
    assert.equal(fs.readFileSync(first.path, 'utf8'), before);
    const history = await v.baton.history('kestrel');
    assert.equal(history.length, 2);
    assert.deepEqual(history[0].verified, first.checkpoint.verified);
    assert.equal(history[0].task, 'token expiry');
  });

  it('baton verify on a checkpoint whose Verified list was edited to another length says so, and judges nothing', async () => {
    const cmd = 'grep -q ttl src/auth.ts';
    await post('claude-code', claudeBash(cmd));
    const r = await checkpoint({ verified: [`ttl is exported — ${cmd}`, 'reviewed by hand'], files: ['src/auth.ts'] });
    const said = async (): Promise<string> => (await cli(['verify'], { vault: v.root, cwd: repo })).stdout;
    assert.match(await said(), /^fresh {3}/m);
    // A person adds an item above the others in the vault: the record's numbers no longer say which claim is which.
    const text = fs.readFileSync(r.path, 'utf8');
    fs.writeFileSync(r.path, text.replace('## Verified\n\n', '## Verified\n\n- added by hand later\n'));
    const out = await said();
    assert.match(out, /Verified list was edited to another length since/);
    assert.doesNotMatch(out, /fresh|stale|unbacked/);
  });

  it('through the MCP server: its checkpoint links the claim, its resume says stale after an edit', async () => {
    await post('claude-code', claudeBash('npm test -- auth'));
    const env: Record<string, string> = {};
    for (const [k, val] of Object.entries(process.env)) if (val !== undefined) env[k] = val;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: repo,
      env: { ...env, BATON_AGENT: '', BATON_PROJECT: '', BATON_VAULT: v.root },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'claude-code', version: '1.0.0' });
    await client.connect(transport);
    try {
      const cp = (await client.callTool({
        name: 'checkpoint',
        arguments: { task: 'expiry', verified: ['rejects expired tokens — npm test -- auth'], files: ['src/auth.ts'] },
      })) as CallToolResult;
      assert.ok(!cp.isError, JSON.stringify(cp.content));
      const latest = await v.baton.latest('kestrel');
      assert.equal(evidenceOf(latest ?? { extra: {}, verified: [] })?.claims[0].command, 'npm test -- auth');
      fs.writeFileSync(path.join(repo, 'src', 'auth.ts'), 'export const ttl = 5;\n');
      const r = (await client.callTool({ name: 'resume', arguments: {} })) as CallToolResult;
      assert.match((r.content[0] as { text: string }).text, /1\. stale: verified at [0-9a-f]{7} by "npm test -- auth"; 1 of its 1 file\(s\) changed since \(src\/auth\.ts\)/);
    } finally {
      await client.close();
    }
  });

  it('Logos compatibility: the evidence key survives a re-render, and the body is the one written', async () => {
    await post('claude-code', claudeBash('npm test -- auth'));
    const r = await checkpoint({ verified: ['rejects expired tokens — npm test -- auth'], files: ['src/auth.ts'] });
    const before = fs.readFileSync(r.path, 'utf8');
    const body = before.slice(before.indexOf('\n---\n', 4));
    // A reader that knows nothing of `evidence` (Logos) keeps it as an unknown key: Baton's own re-render is that path.
    const read = (await v.baton.history('kestrel'))[0];
    const again = await commitCheckpoint(v.baton, { scope: 'kestrel', agent: 'logos', fields: { task: 'copy' }, extra: read.extra });
    // The key as written, value for value (its numbers are the first checkpoint's Verified items: the copy has none).
    assert.deepEqual(again.checkpoint.extra[EVIDENCE_KEY], read.extra[EVIDENCE_KEY]);
    assert.equal(evidenceOf(read)?.claims[0].command, 'npm test -- auth');
    assert.match(fs.readFileSync(again.path, 'utf8'), /\nevidence:\n/);
    assert.equal(fs.readFileSync(r.path, 'utf8').slice(before.indexOf('\n---\n', 4)), body);
  });
});
