// What connect writes, run the way the agent runs it: the hook command from
// the written settings through /bin/sh with a minimal PATH and no BATON_*
// variable, and the MCP server started from the written config by the MCP
// SDK's client. Both reach the vault connect was told about, through the
// launcher and the real built CLI.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { planAgent } from '../../src/adapters/agents/agentConfigs';
import type { AgentId, PlanInput } from '../../src/adapters/agents/agentPlan';
import { applyPlan } from '../../src/adapters/agents/configWriter';
import { writeLauncher } from '../../src/adapters/launcher';
import { CLI, cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('connect, run as the agent runs it', function () {
  this.timeout(60_000);
  let root: string;
  let home: string;
  let project: string;
  let vault: string;
  let input: PlanInput;
  before(() => ensureBuilt());
  beforeEach(async () => {
    root = tempDir('baton-connect-run-');
    home = path.join(root, 'home');
    project = path.join(root, 'work', 'kestrel');
    vault = path.join(root, 'my vault');
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, '.baton-project'), 'kestrel\n');
    const launcher = writeLauncher(home, { runtime: process.execPath, script: CLI, electron: false });
    input = { scope: 'user', home, projectDir: project, launcherPath: launcher.path, vault };
    const r = await cli(['checkpoint', '--project', 'kestrel', '--agent', 'codex', '--task', 'checkout flake', '--failed', 'retrying the queue: same race', '--next', 'bisect'], {
      vault,
      cwd: project,
    });
    assert.equal(r.code, 0, r.stderr);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const connect = (agent: AgentId): void => {
    applyPlan(planAgent(agent, 'connect', input));
  };
  const readJson = (...p: string[]): Obj => JSON.parse(fs.readFileSync(path.join(home, ...p), 'utf8')) as Obj;

  /** A host's shell: /bin/sh -c, PATH=/usr/bin:/bin, HOME, the payload on stdin, nothing of Baton's in the environment. */
  const runHook = (command: string, payload: unknown): string =>
    execFileSync('env', ['-i', 'PATH=/usr/bin:/bin', `HOME=${home}`, '/bin/sh', '-c', command], { cwd: project, input: JSON.stringify(payload), encoding: 'utf8' });

  it("Claude Code's SessionStart hook, as written, prints the hand-over of the connected vault", () => {
    connect('claude-code');
    const command = readJson('.claude', 'settings.json').hooks.SessionStart[0].hooks[0].command as string;
    const out = runHook(command, { session_id: 'abc-123', transcript_path: '', cwd: project, hook_event_name: 'SessionStart', source: 'startup' });
    assert.match(out, /# Hand-over — kestrel/);
    assert.match(out, /retrying the queue: same race/);
  });

  it("Cursor's sessionStart hook, as written, answers in Cursor's JSON", () => {
    connect('cursor');
    const command = readJson('.cursor', 'hooks.json').hooks.sessionStart[0].command as string;
    const out = runHook(command, { conversation_id: 'c-1', workspace_roots: [project], hook_event_name: 'sessionStart', cursor_version: '2.0.77' });
    const answer = JSON.parse(out) as Obj;
    assert.match(String(answer.additional_context), /checkout flake/);
  });

  it("the MCP server started from Cursor's mcp.json, with no BATON_VAULT of the agent's, serves the connected vault", async () => {
    connect('cursor');
    const entry = readJson('.cursor', 'mcp.json').mcpServers.baton as { command: string; args: string[]; env: Record<string, string> };
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      cwd: project,
      env: { PATH: '/usr/bin:/bin', HOME: home, ...entry.env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'Cursor', version: '2.0.77' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: 'resume', arguments: { project: 'kestrel' } })) as CallToolResult;
      assert.match((r.content[0] as { text: string }).text, /checkout flake/);
    } finally {
      await client.close();
    }
  });
});
