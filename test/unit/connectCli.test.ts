// `baton connect` / `baton disconnect` through the real built CLI, with a
// temporary HOME passed in the environment as a person's shell would: what is
// written is parsed in each agent's own format, a dry run writes no byte,
// connecting twice changes nothing, disconnecting gives the person's files back
// byte for byte, and a project-scope hook runs as Claude Code runs it.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { writeLauncher } from '../../src/adapters/launcher';
import { CLI, cli, ensureBuilt, type CliResult } from './support/cli';
import { homeFolders } from './support/homeCli';
import { json, jsonc, nestedCommands, toml } from './support/agentWorld';

type Outcome = { agent: string; scope: string; dryRun: boolean; files: { path: string; action: string }[]; notes: string[]; commands: string[] };

/** Every file and folder under `dir`, with its bytes: two snapshots are equal only when nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) {
        out[full + '/'] = '';
        walk(full);
      } else out[full] = fs.readFileSync(full).toString('base64');
    }
  };
  walk(dir);
  return out;
}

/** A person's own files, one per agent, in shapes Baton must keep: their own entries, comments, indentation, no final newline. */
const OWN: Record<string, { file: string; text: string }> = {
  'claude-code': {
    file: '.claude/settings.json',
    text: '{\n    "model": "opus",\n    "hooks": {\n        "SessionStart": [{ "hooks": [{ "type": "command", "command": "echo hi" }] }]\n    }\n}',
  },
  codex: { file: '.codex/config.toml', text: '# my settings\nmodel = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n' },
  cursor: { file: '.cursor/mcp.json', text: '{\n\t"mcpServers": {\n\t\t"docs": { "command": "docs-mcp" }\n\t}\n}\n' },
  gemini: { file: '.gemini/settings.json', text: '{\n  // the theme I like\n  "theme": "GitHub",\n}\n' },
  copilot: { file: '.copilot/mcp-config.json', text: '{"mcpServers":{"docs":{"type":"local","command":"docs-mcp","args":[],"tools":["*"]}}}' },
};

describe('baton connect / disconnect (the built CLI, a temporary HOME)', function () {
  this.timeout(60_000);
  let root: string;
  let home: string;
  let repo: string;
  let vault: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    ({ root, home, repo, vault } = homeFolders('baton-connect-cli-', 'my vault'));
    fs.mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const run = (args: string[], cwd = repo): Promise<CliResult> => cli(args, { vault, cwd, env: { HOME: home } });
  const runJson = async (args: string[], cwd = repo): Promise<Outcome> => {
    const r = await run([...args, '--json'], cwd);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Outcome;
  };
  const inHome = (...p: string[]): string => path.join(home, ...p);
  const read = (file: string): string => fs.readFileSync(file, 'utf8');
  const launcherOf = (): string => inHome('.baton', 'bin', 'baton');
  const hookOf = (agent: string, event: string): string => `${launcherOf()} --vault "${vault}" hook ${agent} ${event}`;

  it('connects each agent in user scope: the JSON contract, the launcher, and files its agent can read', async () => {
    const launcher = launcherOf();
    const expected: Record<string, string[]> = {
      'claude-code': [launcher, inHome('.claude', 'settings.json')],
      codex: [launcher, inHome('.codex', 'config.toml'), inHome('.codex', 'hooks.json')],
      cursor: [launcher, inHome('.cursor', 'mcp.json'), inHome('.cursor', 'hooks.json')],
      gemini: [launcher, inHome('.gemini', 'settings.json')],
      copilot: [launcher, inHome('.copilot', 'hooks', 'baton.json'), inHome('.copilot', 'mcp-config.json')],
    };
    let first = true;
    for (const [agent, files] of Object.entries(expected)) {
      const o = await runJson(['connect', agent]);
      assert.deepEqual(Object.keys(o), ['agent', 'scope', 'dryRun', 'files', 'notes', 'ran', 'commands', 'failures']);
      assert.equal(o.agent, agent);
      assert.equal(o.scope, 'user');
      assert.equal(o.dryRun, false);
      assert.deepEqual(
        o.files.map((f) => f.path),
        files,
      );
      // The first connect writes the launcher; the others find it pointing at this CLI.
      assert.deepEqual(
        o.files.map((f) => f.action),
        [first ? 'created' : 'unchanged', ...files.slice(1).map(() => 'created')],
        agent,
      );
      first = false;
    }
    assert.match(read(launcher), new RegExp(`exec "${process.execPath}" "${CLI}"`));
    assert.equal(fs.statSync(launcher).mode & 0o777, 0o755);

    const claude = json(read(inHome('.claude', 'settings.json')));
    assert.deepEqual(nestedCommands(claude, 'SessionStart'), [hookOf('claude-code', 'session-start')]);
    const claudeOut = await runJson(['connect', 'claude']);
    assert.equal(claudeOut.agent, 'claude-code');
    assert.match(
      claudeOut.commands[0],
      /^claude mcp add-json --scope user baton '\{"command":".*\.baton\/bin\/baton","args":\["mcp"\],"env":\{"BATON_VAULT":".*my vault","BATON_AGENT":"claude-code"\}\}'$/,
    );

    const codex = toml(read(inHome('.codex', 'config.toml')));
    assert.deepEqual(codex.mcp_servers.baton, { command: launcher, args: ['mcp'], env: { BATON_VAULT: vault, BATON_AGENT: 'codex' } });
    assert.deepEqual(nestedCommands(json(read(inHome('.codex', 'hooks.json'))), 'PostToolUse'), [hookOf('codex', 'post-tool-use')]);

    const cursorHooks = json(read(inHome('.cursor', 'hooks.json')));
    assert.equal(cursorHooks.version, 1);
    assert.equal(cursorHooks.hooks.afterFileEdit[0].command, hookOf('cursor', 'file-edit'));
    assert.equal(json(read(inHome('.cursor', 'mcp.json'))).mcpServers.baton.env.BATON_VAULT, vault);

    const gemini = jsonc(read(inHome('.gemini', 'settings.json')));
    assert.equal(gemini.mcpServers.baton.command, launcher);
    assert.equal(gemini.hooks.SessionStart[0].hooks[0].timeout, 30_000);

    const copilot = json(read(inHome('.copilot', 'hooks', 'baton.json')));
    assert.equal(copilot.hooks.sessionStart[0].bash, hookOf('copilot', 'session-start'));
    assert.deepEqual(json(read(inHome('.copilot', 'mcp-config.json'))).mcpServers.baton.tools, ['*']);

    // Twice: every file unchanged, the bytes too.
    const before = snapshot(root);
    for (const agent of Object.keys(expected)) {
      const again = await runJson(['connect', agent]);
      assert.deepEqual(new Set(again.files.map((f) => f.action)), new Set(['unchanged']), agent);
    }
    assert.deepEqual(snapshot(root), before);
  });

  it('--dry-run writes no byte, and says in text what it would write', async () => {
    for (const { file, text } of Object.values(OWN)) {
      fs.mkdirSync(path.dirname(inHome(file)), { recursive: true });
      fs.writeFileSync(inHome(file), text);
    }
    const before = snapshot(root);
    for (const agent of Object.keys(OWN)) {
      for (const scope of ['user', 'project']) {
        const o = await runJson(['connect', agent, '--scope', scope, '--dry-run']);
        assert.equal(o.dryRun, true);
        assert.ok(
          o.files.some((f) => f.action !== 'unchanged'),
          `${agent} ${scope}`,
        );
        const t = await run(['connect', agent, '--scope', scope, '--dry-run']);
        assert.equal(t.code, 0, t.stderr);
        assert.match(t.stdout, /Dry run: nothing was written/);
      }
    }
    const text = (await run(['connect', 'codex', '--dry-run'])).stdout;
    assert.match(text, /^would update {3}.*\.codex\/config\.toml$/m);
    assert.match(text, /^ {4} command = "docs-mcp"$/m);
    assert.match(text, /^ {4}\+\[mcp_servers\.baton\]$/m);
    assert.match(text, /^would create {3}.*\.baton\/bin\/baton$/m);
    assert.deepEqual(snapshot(root), before);
  });

  it("disconnect gives each person's file back byte for byte and removes the files Baton created", async () => {
    const launcher = launcherOf();
    for (const [agent, { file, text }] of Object.entries(OWN)) {
      fs.mkdirSync(path.dirname(inHome(file)), { recursive: true });
      fs.writeFileSync(inHome(file), text);
      const c = await runJson(['connect', agent]);
      assert.equal(c.files.find((f) => f.path === inHome(file))?.action, 'updated', agent);
      assert.notEqual(read(inHome(file)), text);
      const d = await runJson(['disconnect', agent]);
      assert.equal(d.files.find((f) => f.path === inHome(file))?.action, 'updated', agent);
      assert.equal(read(inHome(file)), text, agent);
      // Nothing of Baton's is left but the launcher: the files it created are gone, the backups dropped.
      for (const f of d.files.filter((x) => x.path !== inHome(file))) assert.ok(!fs.existsSync(f.path), f.path);
      const again = await runJson(['disconnect', agent]);
      assert.deepEqual(new Set(again.files.map((f) => f.action)), new Set(['unchanged']));
    }
    assert.deepEqual(fs.readdirSync(inHome('.baton', 'backups')), []);
    assert.ok(fs.existsSync(launcher), 'disconnect leaves the launcher to the other agents');
  });

  it("project scope writes into the repository root from a subfolder, with no machine path; local scope is Claude Code's settings.local.json", async () => {
    const launcher = launcherOf();
    const o = await runJson(['connect', 'cursor', '--scope', 'project'], path.join(repo, 'src', 'deep'));
    assert.deepEqual(
      o.files.map((f) => f.path),
      [path.join(repo, '.cursor', 'mcp.json'), path.join(repo, '.cursor', 'hooks.json')],
    );
    assert.ok(o.notes.some((n) => /teammate/.test(n)));
    const written = read(path.join(repo, '.cursor', 'hooks.json')) + read(path.join(repo, '.cursor', 'mcp.json'));
    assert.ok(!written.includes(home) && !written.includes(vault), 'a committed file names no path of this machine');
    assert.ok(!fs.existsSync(launcher), 'project scope does not need the launcher');
    const local = await runJson(['connect', 'claude-code', '--scope', 'local']);
    assert.equal(local.files[1].path, path.join(repo, '.claude', 'settings.local.json'));
    assert.match(local.commands[0], /^claude mcp add-json --scope local baton /);
  });

  it('names the vault of --vault in what it writes, over BATON_VAULT', async () => {
    const other = path.join(root, 'other vault');
    await run(['--vault', other, 'connect', 'cursor']);
    assert.equal(json(read(inHome('.cursor', 'mcp.json'))).mcpServers.baton.env.BATON_VAULT, other);
  });

  it("repairs a broken launcher, and leaves a working one that runs VS Code's runtime alone", async () => {
    const launcher = launcherOf();
    writeLauncher(home, { runtime: path.join(root, 'gone', 'node'), script: CLI, electron: false });
    const fixed = await runJson(['connect', 'cursor']);
    assert.equal(fixed.files[0].action, 'updated');
    assert.ok(fixed.notes.some((n) => /which is gone/.test(n)));
    assert.match(read(launcher), new RegExp(`exec "${process.execPath}"`));

    // The extension's: Electron's runtime (any binary that exists stands in for it) and its bundled CLI.
    const code = path.join(root, 'code');
    fs.writeFileSync(code, '');
    writeLauncher(home, { runtime: code, script: CLI, electron: true });
    const kept = read(launcher);
    const k = await runJson(['connect', 'codex']);
    assert.equal(k.files[0].action, 'unchanged');
    assert.ok(k.notes.some((n) => /VS Code's runtime/.test(n)));
    assert.equal(read(launcher), kept);
  });

  it('refuses what it cannot do, with a message and no stack: exit 2 for usage, 1 for a file that is not JSON', async () => {
    const cases: [string[], number, RegExp][] = [
      [['connect', 'vim'], 2, /Unknown agent "vim": one of claude-code, codex, cursor, gemini, copilot/],
      [['connect'], 2, /Which agent\?/],
      [['connect', 'codex', '--scope', 'team'], 2, /--scope is user, project or local/],
      [['connect', 'gemini', '--scope', 'local'], 2, /Gemini CLI has no local scope; use --scope user or --scope project/],
      [['disconnect', 'codex', 'cursor'], 2, /One agent at a time/],
      [['connect', 'codex', '--bogus'], 2, /Usage: baton connect/],
    ];
    for (const [args, code, message] of cases) {
      const r = await run(args);
      assert.equal(r.code, code, args.join(' '));
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
    const broken = '{ "hooks": { "SessionStart": [ }';
    fs.mkdirSync(inHome('.cursor'), { recursive: true });
    fs.writeFileSync(inHome('.cursor', 'hooks.json'), broken);
    const before = snapshot(root);
    const r = await run(['connect', 'cursor']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /hooks\.json is not valid JSON .*Baton changed nothing/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(snapshot(root), before, 'nothing written, the launcher neither');
  });

  it('after `connect claude-code --scope project`, the SessionStart hook run as Claude Code runs it prints the hand-over', async () => {
    fs.writeFileSync(path.join(repo, '.baton-project'), 'kestrel\n');
    // A teammate's machine: `baton` on PATH (an npm install -g), no BATON_VAULT, so the default ~/baton.
    const teamVault = inHome('baton');
    const cp = await cli(['checkpoint', '--agent', 'codex', '--task', 'checkout flake', '--failed', 'retrying the queue: same race'], { vault: teamVault, cwd: repo });
    assert.equal(cp.code, 0, cp.stderr);
    const o = await runJson(['connect', 'claude-code', '--scope', 'project'], path.join(repo, 'src'));
    assert.deepEqual(
      o.files.map((f) => [f.path, f.action]),
      [
        [path.join(repo, '.claude', 'settings.json'), 'created'],
        [path.join(repo, '.mcp.json'), 'created'],
      ],
    );
    assert.deepEqual(json(read(path.join(repo, '.mcp.json'))).mcpServers.baton, { command: 'baton', args: ['mcp'], env: { BATON_AGENT: 'claude-code' } });
    const command = nestedCommands(json(read(path.join(repo, '.claude', 'settings.json'))), 'SessionStart')[0];
    assert.equal(command, 'baton hook claude-code session-start');

    const bin = path.join(root, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'baton'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
    const payload = { session_id: 'abc-123', transcript_path: '', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' };
    const out = execFileSync('env', ['-i', `PATH=${bin}:/usr/bin:/bin`, `HOME=${home}`, '/bin/sh', '-c', command], { cwd: repo, input: JSON.stringify(payload), encoding: 'utf8' });
    assert.match(out, /# Hand-over — kestrel/);
    assert.match(out, /retrying the queue: same race/);
  });

  it("`baton hooks install|uninstall` is connect|disconnect in the project; entries the old command wrote are replaced, then removed, the person's kept", async () => {
    // .claude/settings.json as `baton hooks install claude-code` left it: the person's hook, then Baton's bare `baton hook` entries.
    const settings = path.join(repo, '.claude', 'settings.json');
    const mine = { model: 'opus', hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }] } };
    const old = structuredClone(mine) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    old.hooks.SessionStart.push({ hooks: [{ type: 'command', command: 'baton hook claude-code session-start' }] });
    old.hooks.PreCompact = [{ hooks: [{ type: 'command', command: 'baton hook claude-code pre-compact' }] }];
    old.hooks.PostToolUse = [{ matcher: 'ExitPlanMode', hooks: [{ type: 'command', command: 'baton hook claude-code post-tool-use' }] }];
    old.hooks.SessionEnd = [{ hooks: [{ type: 'command', command: 'baton hook claude-code session-end' }] }];
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, JSON.stringify(old, null, 2) + '\n');
    fs.writeFileSync(`${settings}.baton-backup`, JSON.stringify(mine, null, 2) + '\n');

    // Disconnect alone removes the old entries: nothing of Baton's is left, the person's hook and model are.
    const plain = await runJson(['disconnect', 'claude-code', '--scope', 'project']);
    assert.deepEqual(plain.files.find((f) => f.path === settings)?.action, 'updated');
    assert.deepEqual(json(read(settings)), mine);

    fs.writeFileSync(settings, JSON.stringify(old, null, 2) + '\n');
    const install = await run(['hooks', 'install', 'claude-code', '--json'], path.join(repo, 'src'));
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stderr, /`baton hooks install` is now `baton connect claude-code --scope project`, which registers Baton's MCP server/);
    const o = JSON.parse(install.stdout) as Outcome;
    assert.deepEqual([o.agent, o.scope], ['claude-code', 'project']);
    const s = json(read(settings));
    assert.deepEqual(nestedCommands(s, 'SessionStart'), ['echo hi', 'baton hook claude-code session-start'], 'the old entry replaced, not doubled');
    assert.equal(nestedCommands(s, 'PreCompact').length, 1);
    assert.deepEqual(json(read(path.join(repo, '.mcp.json'))).mcpServers.baton, { command: 'baton', args: ['mcp'], env: { BATON_AGENT: 'claude-code' } });

    const uninstall = await run(['hooks', 'uninstall', 'claude-code']);
    assert.equal(uninstall.code, 0, uninstall.stderr);
    assert.deepEqual(json(read(settings)), mine);
    assert.ok(!fs.existsSync(path.join(repo, '.mcp.json')));
    assert.match(uninstall.stderr, /settings\.json\.baton-backup is the copy `baton hooks install` kept .* delete it when you like/);

    const gone = await run(['hooks', 'install', 'claude-code', '--command', '/opt/baton']);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /--command is gone: .* Run: baton connect claude-code --scope project/);
    const bad = await run(['hooks', 'add', 'claude-code']);
    assert.match(bad.stderr, /`baton connect AGENT` registers Baton's MCP server and hooks/);
  });

  it('with `claude` on PATH, connect runs `claude mcp add-json` itself (a dry run only shows it), replaces an outdated entry, and disconnect runs `claude mcp remove`', async () => {
    // A stand-in for Claude Code's CLI that records each call (the real one is run in test/agents/claudeCode.test.ts).
    const bin = path.join(root, 'bin');
    const calls = path.join(root, 'calls');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'claude'),
      `#!/bin/sh\nprintf '%s|%s|%s\\n' "$PWD" "$HOME" "$*" >> '${calls}'\n[ -e '${root}/fail' ] && { echo 'MCP server baton already exists in user config' >&2; exit 1; }\nexit 0\n`,
      { mode: 0o755 },
    );
    const withClaude = (args: string[]): Promise<CliResult> => cli([...args, '--json'], { vault, cwd: repo, env: { HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}` } });
    const outcome = async (args: string[]): Promise<Outcome & { ran: string[]; failures: string[] }> => {
      const r = await withClaude(args);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Outcome & { ran: string[]; failures: string[] };
    };
    const logged = (): string[] => (fs.existsSync(calls) ? read(calls).trim().split('\n') : []);

    const dry = await outcome(['connect', 'claude-code', '--dry-run']);
    assert.equal(dry.ran.length, 1);
    assert.match(dry.ran[0], /^claude mcp add-json --scope user baton '\{/);
    assert.deepEqual(dry.commands, [], 'nothing is left for the person');
    assert.deepEqual(logged(), [], 'a dry run runs nothing');

    const done = await outcome(['connect', 'claude-code']);
    assert.deepEqual(done.ran, dry.ran);
    const [call] = logged();
    const [cwd, asHome, argv] = call.split('|');
    assert.deepEqual([cwd, asHome], [home, home], 'run in the home folder, with the HOME connect planned for');
    const entry = JSON.parse(argv.replace(/^mcp add-json --scope user baton /, '')) as Record<string, unknown>;
    assert.deepEqual(entry, { command: launcherOf(), args: ['mcp'], env: { BATON_VAULT: vault, BATON_AGENT: 'claude-code' } });

    // ~/.claude.json as Claude Code writes it: an entry of another vault is replaced (remove, then add); the current one is left.
    const claudeJson = inHome('.claude.json');
    fs.writeFileSync(claudeJson, JSON.stringify({ numStartups: 2, mcpServers: { baton: { ...entry, env: { BATON_VAULT: '/elsewhere' } } } }));
    assert.deepEqual((await outcome(['connect', 'claude-code', '--dry-run'])).ran, ['claude mcp remove --scope user baton', dry.ran[0]]);
    fs.writeFileSync(claudeJson, JSON.stringify({ mcpServers: { baton: { type: 'stdio', ...entry } } }));
    assert.deepEqual((await outcome(['connect', 'claude-code'])).ran, []);
    assert.equal(logged().length, 1, 'nothing run when the server is the current one');

    // A failure is Claude Code's own words, exit 1, and the command left for the person.
    fs.writeFileSync(path.join(root, 'fail'), '');
    const off = await withClaude(['disconnect', 'claude-code']);
    assert.equal(off.code, 1);
    const failed = JSON.parse(off.stdout) as { ran: string[]; commands: string[]; failures: string[] };
    assert.deepEqual(failed.commands, ['claude mcp remove --scope user baton']);
    assert.match(failed.failures[0], /`claude mcp remove` failed: MCP server baton already exists/);
    fs.rmSync(path.join(root, 'fail'));
    assert.deepEqual((await outcome(['disconnect', 'claude-code'])).ran, ['claude mcp remove --scope user baton']);

    // A server named baton that is the person's own stops connect before anything is written or run.
    fs.writeFileSync(claudeJson, JSON.stringify({ mcpServers: { baton: { command: 'my-baton-thing', args: [] } } }));
    const refused = await withClaude(['connect', 'claude-code']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /the MCP server "baton" is not Baton's/);
  });
});
