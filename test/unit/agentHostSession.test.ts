// Which agent session an MCP write belongs to (app/agentHostSession.ts), on
// real processes and real files: the built CLI's session-start hook run
// through a shell under this test process (as an agent CLI runs it), the built
// `baton mcp` spawned by this process (as an agent CLI spawns it), and the
// records under `.baton-live/agent-hosts/`. This process plays the agent CLI.
import { strict as assert } from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpSessionOf } from '../../src/app/agentHostSession';
import { writeHostSession } from '../../src/adapters/agentHosts';
import { hostProcess, procStat, type ProcStat } from '../../src/adapters/processTree';
import { agentHostsDirOf } from '../../src/adapters/vaultLayout';
import { CLI, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

const me = (): ProcStat => {
  const p = procStat(process.pid);
  assert.ok(p, 'these tests need /proc');
  return p;
};

/** Runs `sh -c '<node> <cli> ARGS; exit $?'` (the shell stays the hook's parent, as with Claude Code) with `input`. */
function throughShell(args: string[], input: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `${quoted}; exit $?`], { env, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(input);
  });
}

const cleanEnv = (vault: string, extra: Record<string, string> = {}): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(BATON_|CLAUDE_CODE_SESSION_ID$|COPILOT_AGENT_SESSION_ID$)/.test(k)) env[k] = v;
  return { ...env, BATON_VAULT: vault, BATON_PROJECT: 'kestrel', ...extra };
};

describe('MCP writes know their agent session (app/agentHostSession.ts)', function () {
  this.timeout(120_000);
  let vault: string;
  beforeEach(() => {
    vault = tempDir('baton-hostsession-');
  });
  afterEach(() => fs.rmSync(vault, { recursive: true, force: true }));

  it("a session-start hook through a shell records its CLI's session; the MCP server under that CLI writes it into the note and the checkpoint", async () => {
    ensureBuilt();
    const payload = JSON.stringify({ session_id: 'gem-session-1', cwd: vault, hook_event_name: 'SessionStart', source: 'startup' });
    assert.equal(await throughShell(['--vault', vault, 'hook', 'gemini', 'session-start'], payload, cleanEnv(vault)), 0);
    assert.deepEqual(fs.readdirSync(agentHostsDirOf(vault)), [`${process.pid}-${me().start}.json`], 'the record names this process, not the shell');

    // Gemini CLI 0.61.0's client: no session in its environment or its calls' _meta.
    const client = new Client({ name: 'gemini-cli-mcp-client', version: '0.61.0' });
    try {
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: vault, env: cleanEnv(vault), stderr: 'inherit' }));
      await client.callTool({ name: 'note_progress', arguments: { text: 'tried toFixed(2): returns a string' } });
      const notes = fs.readFileSync(path.join(vault, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8');
      assert.match(notes, /- tried toFixed\(2\): returns a string <!-- machine=[0-9a-f]+ agent_session=gem-session-1 --> <!-- ts=\d+ agent=gemini -->/);
      await client.callTool({ name: 'checkpoint', arguments: { task: 'Round the cart total' } });
      const dir = path.join(vault, 'sessions', 'kestrel');
      const [cp] = fs.readdirSync(dir).filter((f) => /^\d{8}-.*\.md$/.test(f));
      assert.ok(cp, fs.readdirSync(dir).join(', '));
      assert.match(fs.readFileSync(path.join(dir, cp), 'utf8').split('\n---')[0], /^agent_session: gem-session-1$/m);
    } finally {
      await client.close();
    }
  });

  it('the newest record of the process wins (a /clear), over the session id the environment gave at start', async () => {
    const env = { CLAUDE_CODE_SESSION_ID: 'claude-at-start' };
    const sessionOf = mcpSessionOf(vault, env, process.pid);
    assert.equal(sessionOf('claude-code', undefined), 'claude-at-start', 'no record yet: the environment');
    await writeHostSession(vault, me(), { host: 'claude-code', session: 'claude-at-start', at: 1 });
    await writeHostSession(vault, me(), { host: 'claude-code', session: 'claude-after-clear', at: 2 });
    assert.equal(sessionOf('claude-code', undefined), 'claude-after-clear');
  });

  it("Codex: a call's _meta names its session, over the record", async () => {
    await writeHostSession(vault, me(), { host: 'codex', session: 'codex-recorded', at: 1 });
    const sessionOf = mcpSessionOf(vault, {}, process.pid);
    assert.equal(sessionOf('codex-mcp-client', { sessionId: 'codex-call' }), 'codex-call');
    assert.equal(sessionOf('codex-mcp-client', { 'x-codex-turn-metadata': { session_id: 'codex-turn' } }), 'codex-turn');
    assert.equal(sessionOf('codex-mcp-client', { progressToken: 1 }), 'codex-recorded');
  });

  it("a reused pid: an earlier process's record is not believed, and the next write prunes it", async () => {
    // Left by an earlier process that had this pid (start time 1), in this boot.
    const dir = agentHostsDirOf(vault);
    await writeHostSession(vault, me(), { host: 'codex', session: 'unrelated', at: 1 });
    const boot = (JSON.parse(fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0]), 'utf8')) as { boot: string }).boot;
    const earlier = JSON.stringify({ host: 'gemini', session: 'earlier-process', at: 1, pid: process.pid, start: '1', boot });
    fs.writeFileSync(path.join(dir, `${process.pid}-1.json`), earlier);
    const sessionOf = mcpSessionOf(vault, {}, process.pid);
    assert.equal(sessionOf('gemini-cli-mcp-client', undefined), '');
    // A file under this process's name whose content names the earlier one (copied, hand-edited) is no better.
    const file = path.join(dir, `${process.pid}-${me().start}.json`);
    fs.writeFileSync(file, earlier);
    assert.equal(sessionOf('gemini-cli-mcp-client', undefined), '');
    // Nor one from another boot.
    fs.writeFileSync(file, JSON.stringify({ host: 'gemini', session: 'before-reboot', at: 1, pid: process.pid, start: me().start, boot: 'another-boot' }));
    assert.equal(sessionOf('gemini-cli-mcp-client', undefined), '');
    await writeHostSession(vault, me(), { host: 'gemini', session: 'this-process', at: 2 });
    assert.equal(sessionOf('gemini-cli-mcp-client', undefined), 'this-process');
    assert.deepEqual(fs.readdirSync(dir), [path.basename(file)], 'the earlier process’s record is gone');
  });

  it('nothing known writes no session: no record, another host’s record, a client that names none, no CLI above', async () => {
    const sessionOf = mcpSessionOf(vault, { GEMINI_SESSION_ID: 'not-given-to-mcp' }, process.pid);
    assert.equal(sessionOf('gemini-cli-mcp-client', undefined), '', 'no record');
    await writeHostSession(vault, me(), { host: 'gemini', session: 'gemini-1', at: 1 });
    assert.equal(sessionOf('copilot-cli', undefined), '', "Gemini's record is not Copilot's");
    // VS Code runs one process for many chats: "the process's newest session" could be another chat's.
    assert.equal(sessionOf('Visual Studio Code', { sessionId: 'x' }), '');
    assert.equal(sessionOf(undefined, undefined), '');
    assert.equal(mcpSessionOf(vault, {}, 0x3fffff)('gemini-cli-mcp-client', undefined), '', 'a parent that does not exist');
  });

  it('the CLI above a hook is the nearest ancestor that is no shell', async () => {
    const child = spawn('/bin/sh', ['-c', 'read line; exit 0'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const ended = new Promise((resolve) => child.on('close', resolve));
    try {
      // Until it has exec'd, the child is a copy of this node process.
      while (procStat(child.pid ?? 0)?.comm !== 'sh') await new Promise((resolve) => setImmediate(resolve));
      assert.equal(hostProcess(child.pid)?.pid, process.pid);
    } finally {
      child.stdin.end('\n');
      await ended;
    }
  });
});
