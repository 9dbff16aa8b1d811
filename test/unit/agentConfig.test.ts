// Connecting agents on real files in a temporary HOME and project: Baton's
// MCP server and hooks land where each agent reads them, in its own format;
// the person's entries, comments and layout stay; connecting twice changes
// nothing; disconnecting gives back the very same bytes.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { planAgent } from '../../src/adapters/agents/agentConfigs';
import { shellWord } from '../../src/adapters/agents/batonCommand';
import { applyPlan } from '../../src/adapters/agents/configWriter';
import { BatonError } from '../../src/core/errors';
import { actions, json, jsonc, nestedCommands, toml, world, type Obj, type World } from './support/agentWorld';

describe("connect: agents' config files", function () {
  this.timeout(30_000);
  let w: World;
  beforeEach(() => {
    w = world();
  });
  afterEach(() => fs.rmSync(w.root, { recursive: true, force: true }));

  describe('Claude Code', () => {
    const THEIRS = `{
    "permissions": { "allow": ["Bash(npm test:*)"] },
    "hooks": {
        "SessionStart": [
            { "matcher": "startup", "hooks": [{ "type": "command", "command": "echo hello" }] }
        ],
        "PostToolUse": [{ "matcher": "Write|Edit", "hooks": [{ "type": "command", "command": "npx prettier --write" }] }]
    },
    "model": "opus"
}`;

    it('writes the five hooks into an empty HOME and gives the claude mcp command for ~/.claude.json', () => {
      const plan = w.run('claude-code', 'connect');
      const settings = path.join(w.home, '.claude', 'settings.json');
      assert.deepEqual(actions(plan), ['settings.json:created']);
      const v = json(w.read(settings));
      for (const [event, baton] of [
        ['SessionStart', 'session-start'],
        ['PreCompact', 'pre-compact'],
        ['PostToolUse', 'post-tool-use'],
        ['Stop', 'stop'],
        ['SessionEnd', 'session-end'],
      ]) {
        assert.deepEqual(nestedCommands(v, event), [`${w.launcher} --vault "${w.vault}" hook claude-code ${baton}`], event);
      }
      // Shell runs too, a failed one through PostToolUseFailure (issue 26: evidence for Verified claims).
      assert.equal(v.hooks.PostToolUse[0].matcher, 'Edit|Write|NotebookEdit|ExitPlanMode|Bash');
      assert.deepEqual(nestedCommands(v, 'PostToolUseFailure'), [`${w.launcher} --vault "${w.vault}" hook claude-code post-tool-use`]);
      assert.equal(v.hooks.PostToolUseFailure[0].matcher, 'Bash');
      assert.equal(v.hooks.SessionEnd[0].hooks[0].timeout, 5);
      // Claude Code's own file is not touched; the supported command is given instead.
      assert.equal(w.exists(path.join(w.home, '.claude.json')), false);
      assert.equal(plan.commands.length, 1);
      const m = /^claude mcp add-json --scope user baton '(.*)'$/.exec(plan.commands[0]);
      assert.ok(m, plan.commands[0]);
      assert.deepEqual(JSON.parse(m[1]), { command: w.launcher, args: ['mcp'], env: { BATON_VAULT: w.vault, BATON_AGENT: 'claude-code' } });
    });

    it("keeps the person's settings byte for byte around its own, changes nothing the second time, and gives the file back", () => {
      const settings = path.join(w.home, '.claude', 'settings.json');
      w.write(settings, THEIRS);
      assert.deepEqual(actions(w.run('claude-code', 'connect')), ['settings.json:updated']);
      const after = w.read(settings);
      const v = json(after);
      assert.deepEqual(v.permissions, { allow: ['Bash(npm test:*)'] });
      assert.equal(v.model, 'opus');
      assert.deepEqual(nestedCommands(v, 'SessionStart'), ['echo hello', `${w.launcher} --vault "${w.vault}" hook claude-code session-start`]);
      assert.deepEqual(nestedCommands(v, 'PostToolUse'), ['npx prettier --write', `${w.launcher} --vault "${w.vault}" hook claude-code post-tool-use`]);
      // The person's one-line entries are still one line each.
      assert.ok(after.includes('{ "matcher": "startup", "hooks": [{ "type": "command", "command": "echo hello" }] }'));
      assert.ok(after.includes('"permissions": { "allow": ["Bash(npm test:*)"] },'));

      assert.deepEqual(actions(w.run('claude-code', 'connect')), ['settings.json:unchanged']);
      assert.equal(w.read(settings), after);

      assert.deepEqual(actions(w.run('claude-code', 'disconnect')), ['settings.json:updated']);
      assert.equal(w.read(settings), THEIRS);
      assert.deepEqual(fs.readdirSync(path.join(w.home, '.baton', 'backups')), []);
    });

    it('removes only its own entries when the person edited the file since, and the file it created once empty', () => {
      const settings = path.join(w.home, '.claude', 'settings.json');
      w.run('claude-code', 'connect');
      w.run('claude-code', 'disconnect');
      assert.equal(w.exists(settings), false, 'a file Baton created and nothing else uses is removed');

      w.run('claude-code', 'connect');
      const edited = w.read(settings).replace(/\n}\n$/, ',\n  "model": "sonnet"\n}\n');
      w.write(settings, edited);
      w.run('claude-code', 'disconnect');
      assert.deepEqual(json(w.read(settings)), { model: 'sonnet' });
    });

    it('project scope: .claude/settings.json and .mcp.json with `baton` on PATH, no path of this machine, and says what teammates need', () => {
      const plan = w.run('claude-code', 'connect', 'project');
      assert.deepEqual(actions(plan), ['settings.json:created', '.mcp.json:created']);
      const settings = w.read(path.join(w.project, '.claude', 'settings.json'));
      const mcp = w.read(path.join(w.project, '.mcp.json'));
      assert.equal(settings.includes(w.root), false);
      assert.equal(mcp.includes(w.root), false);
      assert.deepEqual(nestedCommands(json(settings), 'SessionStart'), ['baton hook claude-code session-start']);
      assert.deepEqual(json(mcp).mcpServers.baton, { command: 'baton', args: ['mcp'], env: { BATON_AGENT: 'claude-code' } });
      assert.ok(plan.notes.some((n) => /teammate/.test(n) && /PATH/.test(n)));
      assert.deepEqual(plan.commands, []);
      w.run('claude-code', 'disconnect', 'project');
      assert.equal(w.exists(path.join(w.project, '.mcp.json')), false);
      assert.equal(w.exists(path.join(w.project, '.claude', 'settings.json')), false);
    });

    it('local scope: .claude/settings.local.json, and the mcp command for this project', () => {
      const plan = w.run('claude-code', 'connect', 'local');
      assert.deepEqual(actions(plan), ['settings.local.json:created']);
      assert.match(plan.commands[0], /^claude mcp add-json --scope local baton /);
    });

    it('replaces the bare `baton hook` entries `baton hooks install` wrote, and an old launcher path, instead of adding a second set', () => {
      const settings = path.join(w.home, '.claude', 'settings.json');
      w.write(settings, JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'baton hook claude-code session-start' }] }] } }, null, 2));
      w.run('claude-code', 'connect');
      assert.deepEqual(nestedCommands(json(w.read(settings)), 'SessionStart'), [`${w.launcher} --vault "${w.vault}" hook claude-code session-start`]);
    });

    it("quotes a launcher path with a space for the hook's shell", () => {
      const spaced = world('Application Support/baton/bin');
      try {
        spaced.run('claude-code', 'connect');
        const v = json(spaced.read(path.join(spaced.home, '.claude', 'settings.json')));
        assert.deepEqual(nestedCommands(v, 'Stop'), [`"${spaced.launcher}" --vault "${spaced.vault}" hook claude-code stop`]);
      } finally {
        fs.rmSync(spaced.root, { recursive: true, force: true });
      }
    });

    it("keeps the file's mode, and keeps its backup under ~/.baton, not beside the file", () => {
      const settings = path.join(w.project, '.claude', 'settings.local.json');
      w.write(settings, THEIRS);
      fs.chmodSync(settings, 0o600);
      w.run('claude-code', 'connect', 'local');
      assert.equal(fs.statSync(settings).mode & 0o777, 0o600);
      assert.deepEqual(fs.readdirSync(path.dirname(settings)), ['settings.local.json']);
      const backups = fs.readdirSync(path.join(w.home, '.baton', 'backups'));
      assert.equal(backups.length, 1);
      assert.equal(w.read(path.join(w.home, '.baton', 'backups', backups[0])), THEIRS);
    });

    it('takes out exactly its own bytes when the person changed something else since (no backup to restore)', () => {
      const settings = path.join(w.home, '.claude', 'settings.json');
      w.write(settings, THEIRS);
      w.run('claude-code', 'connect');
      w.write(settings, w.read(settings).replace('"opus"', '"sonnet"'));
      w.run('claude-code', 'disconnect');
      assert.equal(w.read(settings), THEIRS.replace('"opus"', '"sonnet"'));
    });

    it('refuses a file that is not JSON, and changes nothing', () => {
      const settings = path.join(w.home, '.claude', 'settings.json');
      w.write(settings, '{ "model": ');
      assert.throws(
        () => w.run('claude-code', 'connect'),
        (e: unknown) => e instanceof BatonError && /not valid JSON/.test(e.message),
      );
      assert.equal(w.read(settings), '{ "model": ');
    });
  });

  describe('Codex CLI', () => {
    const CONFIG = `# Codex, my way
model = "o3"  # keep
approval_policy = "on-request"

[mcp_servers.docs]
command = "npx"
args = ["-y", "@acme/docs-mcp"]

[profiles.fast]
model = "o4-mini"
`;

    it('writes [mcp_servers.baton] into config.toml and the hooks into hooks.json, in empty files', () => {
      const plan = w.run('codex', 'connect');
      assert.deepEqual(actions(plan), ['config.toml:created', 'hooks.json:created']);
      const config = toml(w.read(path.join(w.home, '.codex', 'config.toml')));
      assert.deepEqual(config.mcp_servers.baton, { command: w.launcher, args: ['mcp'], env: { BATON_VAULT: w.vault, BATON_AGENT: 'codex' } });
      const hooks = json(w.read(path.join(w.home, '.codex', 'hooks.json')));
      assert.deepEqual(nestedCommands(hooks, 'PostToolUse'), [`${w.launcher} --vault "${w.vault}" hook codex post-tool-use`]);
      assert.equal(hooks.hooks.PostToolUse[0].matcher, '^(apply_patch|Bash)$');
      assert.equal(hooks.hooks.SessionEnd[0].hooks[0].timeout, 3, 'Codex caps SessionEnd at 3 s');
      assert.ok(plan.notes.some((n) => /trust/.test(n)));
    });

    it('edits config.toml surgically: comments and tables stay, twice is unchanged, disconnect gives the bytes back', () => {
      const file = path.join(w.home, '.codex', 'config.toml');
      w.write(file, CONFIG);
      w.run('codex', 'connect');
      const after = w.read(file);
      assert.ok(after.startsWith(CONFIG), "every byte of the person's file is still there, in place");
      const v = toml(after);
      assert.equal(v.model, 'o3');
      assert.deepEqual(v.mcp_servers.docs, { command: 'npx', args: ['-y', '@acme/docs-mcp'] });
      assert.deepEqual(v.profiles, { fast: { model: 'o4-mini' } });
      assert.equal(v.mcp_servers.baton.env.BATON_VAULT, w.vault);

      assert.deepEqual(actions(w.run('codex', 'connect')), ['config.toml:unchanged', 'hooks.json:unchanged']);
      w.run('codex', 'disconnect');
      assert.equal(w.read(file), CONFIG);
      assert.equal(w.exists(path.join(w.home, '.codex', 'hooks.json')), false);
    });

    it('replaces its table in place when the launcher moved, and keeps tables the person added after it', () => {
      const file = path.join(w.home, '.codex', 'config.toml');
      w.write(file, CONFIG);
      w.run('codex', 'connect');
      w.write(file, w.read(file) + '\n[tui]\nnotifications = true\n');
      const moved = { ...w.input('user'), launcherPath: '/opt/baton/bin/baton' };
      applyPlan(planAgent('codex', 'connect', moved));
      const v = toml(w.read(file));
      assert.equal(v.mcp_servers.baton.command, '/opt/baton/bin/baton');
      assert.deepEqual(v.tui, { notifications: true });
      applyPlan(planAgent('codex', 'disconnect', moved));
      const left = w.read(file);
      assert.deepEqual(toml(left).tui, { notifications: true });
      assert.equal(toml(left).mcp_servers.baton, undefined);
      assert.ok(left.startsWith(CONFIG));
    });

    it('takes out exactly its own lines when the person changed something else since', () => {
      const file = path.join(w.home, '.codex', 'config.toml');
      w.write(file, CONFIG);
      w.run('codex', 'connect');
      w.write(file, w.read(file).replace('model = "o3"', 'model = "o4"'));
      w.run('codex', 'disconnect');
      assert.equal(w.read(file), CONFIG.replace('model = "o3"', 'model = "o4"'));
    });

    it("refuses a [mcp_servers.baton] that is not Baton's", () => {
      const file = path.join(w.home, '.codex', 'config.toml');
      const theirs = '[mcp_servers.baton]\ncommand = "relay-race"\nargs = []\n';
      w.write(file, theirs);
      assert.throws(
        () => w.run('codex', 'connect'),
        (e: unknown) => e instanceof BatonError && /not Baton's/.test(e.message),
      );
      assert.equal(w.read(file), theirs);
    });

    it('project scope writes .codex/ with `baton` on PATH and no vault path', () => {
      w.run('codex', 'connect', 'project');
      const config = w.read(path.join(w.project, '.codex', 'config.toml'));
      assert.deepEqual(toml(config).mcp_servers.baton, { command: 'baton', args: ['mcp'], env: { BATON_AGENT: 'codex' } });
      assert.equal(w.read(path.join(w.project, '.codex', 'hooks.json')).includes(w.root), false);
    });

    it('has no local scope', () => {
      assert.throws(
        () => w.run('codex', 'connect', 'local'),
        (e: unknown) => e instanceof BatonError && e.kind === 'usage',
      );
    });
  });

  describe('Cursor', () => {
    const MCP = `{
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] }
  }
}
`;
    const HOOKS = `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{ "command": "./hooks/format.sh" }]
  }
}
`;

    it('writes mcp.json and a version-1 hooks.json into an empty HOME', () => {
      w.run('cursor', 'connect');
      const mcp = json(w.read(path.join(w.home, '.cursor', 'mcp.json')));
      assert.deepEqual(mcp.mcpServers.baton, { command: w.launcher, args: ['mcp'], env: { BATON_VAULT: w.vault, BATON_AGENT: 'cursor' } });
      const hooks = json(w.read(path.join(w.home, '.cursor', 'hooks.json')));
      assert.equal(hooks.version, 1);
      assert.deepEqual(Object.keys(hooks.hooks), ['sessionStart', 'preCompact', 'afterFileEdit', 'stop', 'sessionEnd']);
      assert.deepEqual(hooks.hooks.afterFileEdit, [{ command: `${w.launcher} --vault "${w.vault}" hook cursor file-edit`, timeout: 10 }]);
    });

    it("sits beside the person's servers and hooks, twice is unchanged, disconnect gives both files back", () => {
      const mcpFile = path.join(w.home, '.cursor', 'mcp.json');
      const hooksFile = path.join(w.home, '.cursor', 'hooks.json');
      w.write(mcpFile, MCP);
      w.write(hooksFile, HOOKS);
      w.run('cursor', 'connect');
      const mcp = json(w.read(mcpFile));
      assert.deepEqual(Object.keys(mcp.mcpServers), ['github', 'baton']);
      const hooks = json(w.read(hooksFile));
      assert.deepEqual(
        hooks.hooks.afterFileEdit.map((h: Obj) => h.command),
        ['./hooks/format.sh', `${w.launcher} --vault "${w.vault}" hook cursor file-edit`],
      );
      assert.deepEqual(actions(w.run('cursor', 'connect')), ['mcp.json:unchanged', 'hooks.json:unchanged']);
      w.run('cursor', 'disconnect');
      assert.equal(w.read(mcpFile), MCP);
      assert.equal(w.read(hooksFile), HOOKS);
    });

    it('adds `version` to a hooks file that had none and takes it away again', () => {
      const hooksFile = path.join(w.home, '.cursor', 'hooks.json');
      const noVersion = '{\n  "hooks": {}\n}\n';
      w.write(hooksFile, noVersion);
      w.run('cursor', 'connect');
      assert.equal(json(w.read(hooksFile)).version, 1);
      w.run('cursor', 'disconnect');
      assert.equal(w.read(hooksFile), noVersion);
    });

    it('takes out exactly its own entries from both files when the person changed something else since', () => {
      const mcpFile = path.join(w.home, '.cursor', 'mcp.json');
      const hooksFile = path.join(w.home, '.cursor', 'hooks.json');
      w.write(mcpFile, MCP);
      w.write(hooksFile, HOOKS);
      w.run('cursor', 'connect');
      w.write(mcpFile, w.read(mcpFile).replace('server-github', 'server-gitlab'));
      w.write(hooksFile, w.read(hooksFile).replace('format.sh', 'lint.sh'));
      w.run('cursor', 'disconnect');
      assert.equal(w.read(mcpFile), MCP.replace('server-github', 'server-gitlab'));
      assert.equal(w.read(hooksFile), HOOKS.replace('format.sh', 'lint.sh'));
    });

    it('refuses an "baton" server that is not Baton\'s', () => {
      const mcpFile = path.join(w.home, '.cursor', 'mcp.json');
      w.write(mcpFile, '{"mcpServers": {"baton": {"command": "python", "args": ["relay.py"]}}}');
      assert.throws(
        () => w.run('cursor', 'connect'),
        (e: unknown) => e instanceof BatonError && /not Baton's/.test(e.message),
      );
    });
  });

  it("quotes launcher and vault paths so the hook's shell reads them back exactly", function () {
    if (process.platform === 'win32') this.skip();
    const words = ['/home/me/.baton/bin/baton', '/Users/Jo Ann/notes', 'C:\\Users\\me\\.baton\\bin\\baton.cmd', `it's "quoted" $HOME \`x\` \\n`, '/a;b&c|d'];
    for (const word of words) {
      assert.equal(execFileSync('/bin/sh', ['-c', `printf %s ${shellWord(word)}`], { encoding: 'utf8' }), word);
    }
  });

  it('does not write over a file that changed between the plan and the write', () => {
    const file = path.join(w.home, '.cursor', 'mcp.json');
    w.write(file, '{}\n');
    const plan = planAgent('cursor', 'connect', w.input('user'));
    w.write(file, '{ "mcpServers": { "new": { "command": "x", "args": [] } } }\n');
    assert.throws(
      () => applyPlan(plan),
      (e: unknown) => e instanceof BatonError && /changed since/.test(e.message),
    );
    assert.equal(w.read(file), '{ "mcpServers": { "new": { "command": "x", "args": [] } } }\n');
  });

  it('keeps CRLF line ends and tab indentation in the lines it adds, and takes them out exactly', () => {
    const file = path.join(w.home, '.cursor', 'mcp.json');
    const theirs = '{\r\n\t"mcpServers": {\r\n\t\t"github": {"command": "npx", "args": []}\r\n\t}\r\n}\r\n';
    w.write(file, theirs);
    w.run('cursor', 'connect');
    const after = w.read(file);
    assert.equal(after.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF');
    assert.ok(after.includes('\r\n\t\t"baton": {\r\n\t\t\t"command": '), after);
    assert.deepEqual(Object.keys(json(after).mcpServers), ['github', 'baton']);
    w.write(file, after.replace('"npx"', '"pnpx"'));
    w.run('cursor', 'disconnect');
    assert.equal(w.read(file), theirs.replace('"npx"', '"pnpx"'));
  });

  it('a dry run (the plan alone) writes nothing', () => {
    const plan = planAgent('cursor', 'connect', w.input('user'));
    assert.deepEqual(actions(plan), ['mcp.json:created', 'hooks.json:created']);
    assert.equal(w.exists(path.join(w.home, '.cursor')), false);
    assert.ok(jsonc(plan.files[0].after ?? '').mcpServers.baton);
  });
});
