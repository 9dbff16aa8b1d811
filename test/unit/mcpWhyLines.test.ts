// `why` with lines through the MCP SDK's real client over stdio, the built
// CLI serving, in a real repository with backdated commits.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, cli, ensureBuilt } from './support/cli';
import { gitEnv } from './support/gitRepo';
import { tempDir } from './support/tempVault';
import { mcpClient } from '../support/mcpClient';

const T = 1_780_000_000;

const connect = (vault: string, cwd: string): Promise<Client> => mcpClient({ cli: CLI, vault, cwd, name: 'claude-code', env: gitEnv });

const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> => (await c.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

describe('why with lines (MCP, real repository)', function () {
  this.timeout(60_000);
  let vault: string;
  let parent: string;
  let repo: string;
  let client: Client | undefined;
  before(() => ensureBuilt());
  beforeEach(() => {
    vault = tempDir('baton-mcp-vault-');
    parent = fs.realpathSync(tempDir('baton-mcp-blame-'));
    repo = path.join(parent, 'kestrel');
    fs.mkdirSync(repo);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: gitEnv });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    fs.rmSync(vault, { recursive: true, force: true });
    fs.rmSync(parent, { recursive: true, force: true });
  });

  function commitAt(ts: number, files: Record<string, string>): void {
    for (const [rel, t] of Object.entries(files)) fs.writeFileSync(path.join(repo, rel), t);
    const env = { ...gitEnv, GIT_AUTHOR_DATE: `@${ts} +0000`, GIT_COMMITTER_DATE: `@${ts} +0000` };
    execFileSync('git', ['add', '-A'], { cwd: repo, env });
    execFileSync('git', ['commit', '-q', '-m', `at ${ts}`], { cwd: repo, env });
  }

  it('names the session that wrote a line, with its task, dead ends, decisions and next step, quoted', async () => {
    commitAt(T - 86400, { 'cart.ts': 'one\ntwo\nthree\n' });
    assert.equal((await cli(['note', '--agent', 'claude-code', '--at', String(T), 'started'], { vault, cwd: repo, env: gitEnv })).code, 0);
    commitAt(T + 3600, { 'cart.ts': 'one\nTWO\nthree\n' });
    client = await connect(vault, repo);
    const cp = await call(client, 'checkpoint', {
      task: 'cart totals',
      failed: ['floats for money: 0.1 + 0.2 [see](command:workbench.action.terminal.new)'],
      decisions: ['integer cents'],
      next: 'round tax per line',
    });
    assert.ok(!cp.isError, text(cp));

    const r = await call(client, 'why', { file: 'cart.ts', line: 2 });
    assert.ok(!r.isError, text(r));
    const t = text(r);
    assert.match(t, /^cart\.ts line 2: written in 1 session\./);
    assert.match(t, /^line 2: claude-code, \d+[smhd] ago, sessions\/kestrel\/[\d-]+claude-code, commit [0-9a-f]{12}$/m);
    assert.match(t, /^Task:\n {2}> cart totals$/m);
    assert.match(t, /^Didn't work \(ruled out\):\n {2}> - floats for money: 0\.1 \+ 0\.2 \[see\]\(command:workbench\.action\.terminal\.new\)$/m);
    assert.match(t, /^Decided:\n {2}> - integer cents$/m);
    assert.match(t, /^Next:\n {2}> round tax per line$/m);
    const lines = (r.structuredContent as { lines: { start: number; agent: string; failed: string[]; next: string }[] }).lines;
    assert.deepEqual(
      lines.map((l) => [l.start, l.agent, l.next]),
      [[2, 'claude-code', 'round tax per line']],
    );

    const range = await call(client, 'why', { file: path.join(repo, 'cart.ts'), line: 1, end_line: 3 });
    assert.match(text(range), /^cart\.ts lines 1-3: written in 1 session; lines of it not listed below are nobody's\./);
    const older = await call(client, 'why', { file: 'cart.ts', line: 3 });
    assert.match(text(older), /^No checkpointed session wrote cart\.ts line 3/);
    const bad = await call(client, 'why', { file: 'cart.ts', line: 3, end_line: 2 });
    assert.ok(bad.isError);
    assert.match(text(bad), /no range/);
    // Without lines, why still answers per file.
    assert.ok(Array.isArray((await call(client, 'why', { file: 'cart.ts' })).structuredContent?.touches));
  });
});
