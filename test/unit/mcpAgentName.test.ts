// One agent identity per host: what Baton's MCP tools write under, with the
// SDK's real client over stdio against the built CLI. BATON_AGENT (which
// connect puts in the server's environment) wins; without it the client's own
// name from the handshake maps to the name the host's hooks write as.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AGENT_OF, type Host } from '../../src/hooks/hosts';
import { agentOfClient, CLIENT_AGENTS } from '../../src/mcp/clientAgents';
import { mcpClient } from '../support/mcpClient';
import { CLI, cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

const structured = (r: unknown): Record<string, unknown> => (r as CallToolResult).structuredContent as Record<string, unknown>;

/** The client names the real CLIs sent (src/mcp/clientAgents.ts says where each was seen), per host. */
const SEEN: [Host, string][] = [
  ['claude-code', 'claude-code'],
  ['codex', 'codex-mcp-client'],
  ['gemini', 'gemini-cli-mcp-client'],
  ['copilot', 'copilot-cli'],
  ['cursor', 'cursor-vscode'],
  ['vscode', 'Visual Studio Code'],
];

describe("the MCP server's agent name", function () {
  this.timeout(60_000);
  let vault: string;
  let work: string;
  let client: Client | undefined;
  before(() => ensureBuilt());
  beforeEach(() => {
    vault = tempDir('baton-mcp-agent-vault-');
    work = tempDir('baton-mcp-agent-work-');
    fs.writeFileSync(path.join(work, '.baton-project'), 'kestrel\n');
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    fs.rmSync(vault, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("maps each host's client name to the name its hooks write as", () => {
    for (const [host, name] of SEEN) assert.equal(agentOfClient({}, name), AGENT_OF[host], name);
    assert.equal(Object.keys(CLIENT_AGENTS).length, SEEN.length + 1, 'every mapped name is tested (and VS Code Insiders)');
    assert.equal(agentOfClient({}, 'Some Other Client'), 'some-other-client', 'an unknown client keeps its own name');
    assert.equal(agentOfClient({ BATON_AGENT: ' codex ' }, 'gemini-cli-mcp-client'), 'codex', 'BATON_AGENT wins');
  });

  it("without BATON_AGENT, Codex's MCP note and its hook's edit are one session: the checkpoint gets the file", async () => {
    const patch = '*** Begin Patch\n*** Update File: src/cart.ts\n@@\n-a\n+b\n*** End Patch\n';
    const hook = await cli(['hook', 'codex', 'post-tool-use'], {
      vault,
      cwd: work,
      input: JSON.stringify({ session_id: 'x-1', cwd: work, hook_event_name: 'PostToolUse', tool_name: 'apply_patch', tool_input: { command: patch } }),
    });
    assert.equal(hook.code, 0, hook.stderr);
    client = await mcpClient({ cli: CLI, vault, cwd: work, name: 'codex-mcp-client' });
    assert.equal(structured(await client.callTool({ name: 'note_progress', arguments: { text: 'rounding was float math' } })).agent, 'codex');
    const cp = structured(await client.callTool({ name: 'checkpoint', arguments: { task: 'fix cart rounding', next: 'ship it' } }));
    assert.equal(cp.agent, 'codex');
    assert.equal(cp.folded, 2, 'the note and the edit');
    const file = fs.readFileSync(cp.path as string, 'utf8');
    assert.match(file, /## Files\n\n- src\/cart\.ts\n/);
    const sessions = await cli(['sessions', 'kestrel', '--json'], { vault, cwd: work });
    assert.deepEqual(
      (JSON.parse(sessions.stdout) as { checkpoints: { agent: string }[] }).checkpoints.map((c) => c.agent),
      ['codex'],
    );
  });

  it('with BATON_AGENT in its environment (as connect writes it), that name whatever the client calls itself', async () => {
    client = await mcpClient({ cli: CLI, vault, cwd: work, name: 'gemini-cli-mcp-client', serverEnv: { BATON_AGENT: 'gemini' } });
    assert.equal(structured(await client.callTool({ name: 'note_progress', arguments: { text: 'one' } })).agent, 'gemini');
    await client.close();
    client = await mcpClient({ cli: CLI, vault, cwd: work, name: 'a-renamed-client 2.0', serverEnv: { BATON_AGENT: 'gemini' } });
    assert.equal(structured(await client.callTool({ name: 'note_progress', arguments: { text: 'two', agent: 'claude' } })).agent, 'gemini', 'no argument names another agent');
    const notes = fs.readFileSync(path.join(vault, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8');
    assert.deepEqual(
      [...notes.matchAll(/<!-- ts=\d+ agent=(\S+)[^>]*-->/g)].map((m) => m[1]),
      ['gemini', 'gemini'],
    );
  });
});
