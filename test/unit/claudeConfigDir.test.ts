// CLAUDE_CONFIG_DIR moves Claude Code's configuration folder: its user
// settings.json and, as Claude Code 2.1.328's `claude mcp add-json` writes it,
// its .claude.json (the agents' tier's CLI, tried: nothing in the home folder).
// Connect, disconnect and doctor, through the real built CLI, must read and
// write there, and run `claude mcp` with the same folder; a relative one,
// which Claude Code refuses, changes nothing.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { cli, ensureBuilt, type CliResult } from './support/cli';
import { homeFolders } from './support/homeCli';
import { json, nestedCommands } from './support/agentWorld';

type Outcome = { files: { path: string; action: string }[]; ran: string[]; commands: string[]; failures: string[] };
type Doctor = { ok: boolean; agents: { agent: string; scope: string; connected: string; problems: string[] }[] };

describe('CLAUDE_CONFIG_DIR: connect, disconnect and doctor use Claude Code’s configuration folder', function () {
  this.timeout(60_000);
  let root: string;
  let home: string;
  let repo: string;
  let vault: string;
  let config: string;
  let bin: string;
  let calls: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    ({ root, home, repo, vault } = homeFolders('baton-claude-config-', 'my vault'));
    config = path.join(root, 'claude-work');
    bin = path.join(root, 'bin');
    calls = path.join(root, 'calls');
    fs.mkdirSync(bin);
    // Claude Code's `claude mcp`, as far as connect sees it: it logs where it
    // ran and writes the server where the real 2.1.328 does, .claude.json in
    // CLAUDE_CONFIG_DIR when set, else in the home folder.
    fs.writeFileSync(
      path.join(bin, 'claude'),
      [
        '#!/bin/sh',
        `printf '%s|%s\\n' "\${CLAUDE_CONFIG_DIR-unset}" "$2" >> '${calls}'`,
        'file="${CLAUDE_CONFIG_DIR:-$HOME}/.claude.json"',
        'mkdir -p "$(dirname "$file")"',
        `if [ "$2" = add-json ]; then printf '{"mcpServers":{"baton":%s}}' "$6" > "$file"; else printf '{}' > "$file"; fi`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const run = (args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> =>
    cli(args, { vault, cwd: repo, env: { HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}`, ...env } });
  const outcome = async (args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> => {
    const r = await run([...args, '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Outcome;
  };
  const doctor = async (env: NodeJS.ProcessEnv): Promise<Doctor['agents'][number]> => {
    const r = await run(['doctor', '--json'], env);
    const a = (JSON.parse(r.stdout) as Doctor).agents.find((x) => x.agent === 'claude-code' && x.scope === 'user');
    assert.ok(a, r.stdout);
    return a;
  };
  const logged = (): string[] => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : []);

  it('writes the hooks into $CLAUDE_CONFIG_DIR/settings.json and runs claude mcp there; doctor reads the server from $CLAUDE_CONFIG_DIR/.claude.json', async () => {
    const moved = { CLAUDE_CONFIG_DIR: config };
    const dry = await outcome(['connect', 'claude-code', '--dry-run'], moved);
    assert.deepEqual(
      dry.files.filter((f) => f.path.includes('settings')).map((f) => f.path),
      [path.join(config, 'settings.json')],
    );
    assert.match(dry.ran[0], new RegExp(`^CLAUDE_CONFIG_DIR=${config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} claude mcp add-json --scope user baton '\\{`));

    await outcome(['connect', 'claude-code'], moved);
    assert.equal(fs.existsSync(path.join(home, '.claude')), false, 'nothing in ~/.claude');
    assert.equal(fs.existsSync(path.join(home, '.claude.json')), false, 'nothing in ~/.claude.json');
    assert.match(nestedCommands(json(fs.readFileSync(path.join(config, 'settings.json'), 'utf8')), 'SessionStart')[0], /hook claude-code session-start/);
    assert.deepEqual(logged(), [`${config}|add-json`], 'claude ran with the folder connect planned for');
    assert.deepEqual((await doctor(moved)).problems, [], "the server is in the folder's .claude.json");

    // The same person without the variable: Claude Code reads ~/.claude, where nothing is connected.
    const plain = await doctor({ CLAUDE_CONFIG_DIR: '' });
    assert.equal(plain.connected, 'no');

    // The server only in ~/.claude.json, where this Claude Code does not look: missing, with the command that fixes it.
    fs.writeFileSync(path.join(home, '.claude.json'), fs.readFileSync(path.join(config, '.claude.json')));
    fs.writeFileSync(path.join(config, '.claude.json'), '{}');
    const missing = await doctor(moved);
    assert.equal(missing.problems.length, 1, JSON.stringify(missing));
    assert.match(missing.problems[0], new RegExp(`MCP server is missing in ${path.join(config, '.claude.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(missing.problems[0], /CLAUDE_CONFIG_DIR=\S+ claude mcp add-json/);

    await outcome(['connect', 'claude-code'], moved);
    const off = await outcome(['disconnect', 'claude-code'], moved);
    assert.deepEqual(off.ran, [`CLAUDE_CONFIG_DIR=${config} claude mcp remove --scope user baton`]);
    assert.deepEqual(logged().slice(-1), [`${config}|remove`]);
    assert.equal(fs.existsSync(path.join(config, 'settings.json')), false, 'the settings file Baton created is gone again');
  });

  it('a relative CLAUDE_CONFIG_DIR, which Claude Code refuses, is no folder: ~/.claude as without it, and claude runs without it', async () => {
    await outcome(['connect', 'claude-code'], { CLAUDE_CONFIG_DIR: 'claude-work' });
    assert.ok(fs.existsSync(path.join(home, '.claude', 'settings.json')));
    assert.deepEqual(logged(), ['unset|add-json']);
  });
});
