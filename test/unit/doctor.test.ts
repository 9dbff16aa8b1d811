// `baton doctor` through the real built CLI in a temporary HOME: healthy exits
// 0, a connected agent whose launcher is broken exits 1 naming the command
// that fixes it, an agent that is simply not connected is no problem.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { writesAs } from '../../src/app/doctor';
import { writeLauncher } from '../../src/adapters/launcher';
import { CLI, cli, ensureBuilt, type CliResult } from './support/cli';
import { homeFolders } from './support/homeCli';
import { trustCodexHooks } from './support/codexTrust';

type Report = {
  ok: boolean;
  vault: { path: string; ok: boolean; exists: boolean; readable: boolean; writable: boolean; index: string; staleLocks: string[]; problems: string[] };
  launcher: { path: string; ok: boolean; present: boolean; runtime: string | null; runtimeExists: boolean };
  agents: { agent: string; scope: string; connected: string; files: { path: string; state: string }[]; lastSeen: string | null; problems: string[] }[];
};

describe('baton doctor (the built CLI, a temporary HOME)', function () {
  this.timeout(60_000);
  let root: string;
  let home: string;
  let repo: string;
  let vault: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    pathEnv = undefined;
    ({ root, home, repo, vault } = homeFolders('baton-doctor-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** PATH as the test's, or with a folder holding `baton` first (the launcher linked there, as Install 'baton' in PATH does). */
  let pathEnv: string | undefined;
  const run = (args: string[]): Promise<CliResult> => cli(args, { vault, cwd: repo, env: { HOME: home, ...(pathEnv ? { PATH: pathEnv } : {}) } });
  const report = async (expectCode: number): Promise<Report> => {
    const r = await run(['doctor', '--json']);
    assert.equal(r.code, expectCode, r.stdout + r.stderr);
    return JSON.parse(r.stdout) as Report;
  };
  const entry = (r: Report, agent: string, scope = 'user') => r.agents.find((a) => a.agent === agent && a.scope === scope);

  it('is healthy with nothing connected, and with connected agents: exit 0, last seen from the vault', async () => {
    const empty = await report(0);
    assert.deepEqual(Object.keys(empty).sort(), ['agents', 'launcher', 'ok', 'vault']);
    assert.deepEqual({ ...empty.vault, path: '' }, { path: '', ok: true, exists: false, readable: true, writable: true, index: 'none', staleLocks: [], problems: [] });
    assert.equal(empty.launcher.ok, false);
    assert.equal(empty.launcher.present, false);
    assert.ok(empty.agents.every((a) => a.connected === 'no' && a.problems.length === 0));
    assert.deepEqual(new Set(empty.agents.map((a) => a.scope)), new Set(['user', 'project', 'local']));

    assert.equal((await run(['note', '--agent', 'claude-code', 'tried the mock'])).code, 0);
    assert.equal((await run(['checkpoint', '--agent', 'codex-mcp-client', '--task', 'checkout flake'])).code, 0);
    assert.equal((await run(['connect', 'codex'])).code, 0);
    trustCodexHooks(home); // Codex runs no hook until trusted: doctor says so (codexTrust.test.ts)
    assert.equal((await run(['connect', 'cursor', '--scope', 'project'])).code, 0);
    // The project's files call `baton` on PATH: without one here, that is the problem to fix.
    const noPath = await report(1);
    assert.match(entry(noPath, 'cursor', 'project')?.problems[0] ?? '', /project-scope hooks call `baton` on PATH, which is not found here/);
    const bin = path.join(root, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(path.join(home, '.baton', 'bin', 'baton'), path.join(bin, 'baton'));
    pathEnv = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
    const r = await report(0);
    assert.equal(r.vault.exists, true);
    assert.equal(r.vault.writable, true);
    assert.equal(r.vault.index, 'ok');
    assert.equal(r.launcher.ok, true);
    assert.equal(entry(r, 'codex')?.connected, 'yes');
    assert.deepEqual(
      entry(r, 'codex')?.files.map((f) => f.state),
      ['connected', 'connected'],
    );
    assert.equal(entry(r, 'cursor', 'project')?.connected, 'yes');
    assert.equal(entry(r, 'cursor')?.connected, 'no');
    assert.ok(entry(r, 'codex')?.lastSeen && Math.abs(Date.parse(entry(r, 'codex')!.lastSeen!) - Date.now()) < 60_000);
    assert.ok(entry(r, 'claude-code')?.lastSeen, 'a note counts as being seen');
    assert.equal(entry(r, 'gemini')?.lastSeen, null);
    const text = await run(['doctor']);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^ok {2}Codex CLI \(user\): connected; last wrote \d+s ago$/m);
    assert.match(text.stdout, /Nothing needs fixing/);
  });

  it("last seen is each agent's latest note or checkpoint in the vault, read past a saved index, a VS Code edit counted as copilot's", async () => {
    assert.equal((await run(['note', '--agent', 'gemini', '--at', '2026-11-30T10:00:00Z', 'an older note'])).code, 0);
    assert.equal((await run(['note', '--agent', 'gemini', '--at', '2026-11-30T12:00:00Z', 'the latest note'])).code, 0);
    assert.equal((await run(['note', '--agent', 'cursor', '--at', '2026-11-29T09:30:00Z', 'cursor was here'])).code, 0);
    assert.equal((await run(['index'])).code, 0, 'a saved index, which the next notes are not in');
    assert.equal((await run(['note', '--agent', 'cursor', '--at', '2026-11-30T15:45:00Z', 'cursor again, after the index was saved'])).code, 0);
    // VS Code's agent editing through a borrowed Claude hook writes as copilot.
    const edit = { sessionId: 'v-1', hookEventName: 'PostToolUse', cwd: repo, tool_name: 'create_file', tool_input: { filePath: path.join(repo, 'src', 'vs.ts') } };
    assert.equal((await cli(['hook', 'claude-code', 'post-tool-use'], { vault, cwd: repo, env: { HOME: home }, input: JSON.stringify(edit) })).code, 0);
    const r = await report(0);
    assert.equal(entry(r, 'gemini')?.lastSeen, '2026-11-30T12:00:00.000Z');
    assert.equal(entry(r, 'cursor')?.lastSeen, '2026-11-30T15:45:00.000Z');
    assert.ok(entry(r, 'copilot')?.lastSeen && Math.abs(Date.parse(entry(r, 'copilot')!.lastSeen!) - Date.now()) < 60_000);
    assert.equal(entry(r, 'claude-code')?.lastSeen, null, 'the hook it ran wrote as copilot, not as claude-code');
  });

  it('a connected agent whose launcher is broken: exit 1, the problem names the fix, and the fix works', async () => {
    assert.equal((await run(['connect', 'cursor'])).code, 0);
    writeLauncher(home, { runtime: path.join(root, 'uninstalled', 'node'), script: CLI, electron: false });
    const r = await report(1);
    assert.equal(r.ok, false);
    assert.equal(r.launcher.ok, false);
    assert.equal(r.launcher.runtimeExists, false);
    const [problem] = entry(r, 'cursor')?.problems ?? [];
    assert.match(problem, /calls the launcher .*\.baton\/bin\/baton, which runs .*uninstalled\/node, which is gone: run baton connect cursor /);
    const text = await run(['doctor']);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^FIX Cursor \(user\)/m);
    assert.match(text.stdout, /Something needs fixing/);

    assert.equal((await run(['connect', 'cursor'])).code, 0);
    await report(0);
  });

  it('a broken launcher no agent calls is no failure; a half-connected agent is one', async () => {
    writeLauncher(home, { runtime: path.join(root, 'gone'), script: CLI, electron: false });
    assert.equal((await report(0)).launcher.ok, false);
    assert.equal((await run(['connect', 'codex', '--scope', 'project'])).code, 0);
    fs.rmSync(path.join(repo, '.codex', 'hooks.json'));
    const r = await report(1);
    assert.equal(entry(r, 'codex', 'project')?.connected, 'partly');
    assert.match(entry(r, 'codex', 'project')?.problems[0] ?? '', /run baton connect codex --scope project/);
  });

  it('reports locks left by dead holders without failing, and an index that is a cache rebuilt, not a problem', async () => {
    assert.equal((await run(['note', '--agent', 'cursor', 'x'])).code, 0);
    const locks = path.join(vault, '.baton-live', 'locks');
    fs.mkdirSync(locks, { recursive: true });
    const dead = path.join(locks, 'aaaa.lock');
    fs.writeFileSync(dead, JSON.stringify({ host: 'another-host', ns: '', pid: 4242, token: 't' }));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(dead, old, old);
    fs.writeFileSync(path.join(locks, 'bbbb.lock'), JSON.stringify({ host: 'another-host', ns: '', pid: 4343, token: 'u' }));
    fs.mkdirSync(path.join(vault, '.baton'), { recursive: true });
    fs.writeFileSync(path.join(vault, '.baton', 'index.sqlite'), 'not a database');
    const r = await report(0);
    assert.deepEqual(r.vault.staleLocks, [dead]);
    assert.equal(r.vault.index, 'ok');
    assert.ok(fs.existsSync(dead), 'doctor only looks');
  });

  it("Claude Code connected in user scope, with ~/.claude.json lacking Baton's server or holding an old one: exit 1 with the step that fixes it", async () => {
    assert.equal((await run(['connect', 'claude-code'])).code, 0);
    // No ~/.claude.json (Claude Code never ran, `claude mcp add-json` never did): no server either.
    const missing =
      /MCP server is missing in ~\/\.claude\.json \(user scope\), so Claude Code has no Baton tools: run baton connect claude-code \(it runs `claude mcp` for you\), or: claude mcp add-json --scope user baton '/;
    assert.match(entry(await report(1), 'claude-code')?.problems[0] ?? '', missing);
    const claudeJson = path.join(home, '.claude.json');
    fs.writeFileSync(claudeJson, JSON.stringify({ numStartups: 3, mcpServers: { docs: { command: 'docs-mcp', args: [] } } }));
    assert.match(entry(await report(1), 'claude-code')?.problems[0] ?? '', missing);
    const launcher = path.join(home, '.baton', 'bin', 'baton');
    fs.writeFileSync(claudeJson, JSON.stringify({ mcpServers: { baton: { type: 'stdio', command: launcher, args: ['mcp'], env: { BATON_VAULT: vault } } } }));
    assert.match(
      entry(await report(1), 'claude-code')?.problems[0] ?? '',
      /MCP server is not the current one in ~\/\.claude\.json .* claude mcp remove --scope user baton && claude mcp add-json/,
    );
    fs.writeFileSync(
      claudeJson,
      JSON.stringify({ mcpServers: { baton: { type: 'stdio', command: launcher, args: ['mcp'], env: { BATON_VAULT: vault, BATON_AGENT: 'claude-code' } } } }),
    );
    await report(0);
  });

  it('a vault that is a file: exit 1 with what to do', async () => {
    fs.writeFileSync(vault, 'oops');
    const r = await report(1);
    assert.match(r.vault.problems[0], /is a file, not a folder: choose another vault/);
  });

  it('knows an agent by the names it writes as', () => {
    assert.ok(writesAs('claude-code', 'claude'));
    assert.ok(writesAs('claude-code', 'claude-code'));
    assert.ok(writesAs('cursor', 'cursor-vscode'));
    assert.ok(writesAs('gemini', 'gemini-cli-mcp-client'));
    assert.ok(!writesAs('codex', 'codexian'));
    assert.ok(!writesAs('cursor', 'cli'));
  });
});
