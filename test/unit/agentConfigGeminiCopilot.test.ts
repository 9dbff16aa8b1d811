// Connecting Gemini CLI and GitHub Copilot on real files: where each reads
// Baton's entries, comments and the person's entries kept, twice unchanged,
// disconnect byte for byte.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { actions, json, jsonc, nestedCommands, world, type World } from './support/agentWorld';

describe('connect: Gemini CLI and Copilot config files', () => {
  let w: World;
  beforeEach(() => {
    w = world();
  });
  afterEach(() => fs.rmSync(w.root, { recursive: true, force: true }));

  describe('Gemini CLI', () => {
    // Gemini reads settings.json through strip-json-comments: a person's comments must survive.
    const SETTINGS = `// my Gemini settings
{
  "theme": "GitHub", // keep this
  "mcpServers": {
    "docs": { "command": "npx", "args": ["-y", "docs-mcp"], "timeout": 15000 }
  },
  /* my hooks */
  "hooks": {
    "AfterTool": [{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "prettier --write", "timeout": 5000 }] }]
  }
}
`;

    it("puts the server and the hooks, timeouts in milliseconds, into one settings.json beside the person's, comments kept", () => {
      const file = path.join(w.home, '.gemini', 'settings.json');
      w.write(file, SETTINGS);
      assert.deepEqual(actions(w.run('gemini', 'connect')), ['settings.json:updated']);
      const text = w.read(file);
      assert.ok(text.includes('// my Gemini settings') && text.includes('// keep this') && text.includes('/* my hooks */'));
      const v = jsonc(text);
      assert.equal(v.theme, 'GitHub');
      assert.deepEqual(Object.keys(v.mcpServers), ['docs', 'baton']);
      assert.deepEqual(v.mcpServers.baton, { command: w.launcher, args: ['mcp'], env: { BATON_VAULT: w.vault, BATON_AGENT: 'gemini' } });
      assert.deepEqual(nestedCommands(v, 'AfterTool'), ['prettier --write', `${w.launcher} --vault "${w.vault}" hook gemini post-tool-use`]);
      assert.equal(v.hooks.AfterTool[1].matcher, '^(write_file|replace|run_shell_command)$');
      assert.deepEqual(nestedCommands(v, 'PreCompress'), [`${w.launcher} --vault "${w.vault}" hook gemini pre-compact`], "Gemini's event is PreCompress");
      assert.equal(v.hooks.SessionStart[0].hooks[0].timeout, 30_000);
      assert.deepEqual(actions(w.run('gemini', 'connect')), ['settings.json:unchanged']);
      w.run('gemini', 'disconnect');
      assert.equal(w.read(file), SETTINGS);
    });

    it('creates .gemini/settings.json for a project with `baton` on PATH, and removes it again', () => {
      const plan = w.run('gemini', 'connect', 'project');
      const file = path.join(w.project, '.gemini', 'settings.json');
      const v = json(w.read(file));
      assert.deepEqual(v.mcpServers.baton, { command: 'baton', args: ['mcp'], env: { BATON_AGENT: 'gemini' } });
      assert.deepEqual(nestedCommands(v, 'SessionEnd'), ['baton hook gemini session-end']);
      assert.ok(plan.notes.some((n) => /PATH/.test(n)));
      w.run('gemini', 'disconnect', 'project');
      assert.equal(w.exists(file), false);
    });
  });

  describe('GitHub Copilot', () => {
    it('user scope: its own hooks file under ~/.copilot/hooks and the server in mcp-config.json', () => {
      const mcpFile = path.join(w.home, '.copilot', 'mcp-config.json');
      const theirs = '{\n  "mcpServers": {\n    "playwright": { "type": "local", "command": "npx", "args": ["@playwright/mcp"], "tools": ["*"] }\n  }\n}\n';
      w.write(mcpFile, theirs);
      assert.deepEqual(actions(w.run('copilot', 'connect')), ['baton.json:created', 'mcp-config.json:updated']);
      const hooks = json(w.read(path.join(w.home, '.copilot', 'hooks', 'baton.json')));
      assert.equal(hooks.version, 1);
      assert.deepEqual(Object.keys(hooks.hooks), ['sessionStart', 'preCompact', 'postToolUse', 'agentStop', 'sessionEnd']);
      assert.deepEqual(hooks.hooks.agentStop, [
        { type: 'command', bash: `${w.launcher} --vault "${w.vault}" hook copilot stop`, powershell: `${w.launcher} --vault '${w.vault}' hook copilot stop`, timeoutSec: 10 },
      ]);
      assert.deepEqual(json(w.read(mcpFile)).mcpServers.baton, {
        type: 'local',
        command: w.launcher,
        args: ['mcp'],
        env: { BATON_VAULT: w.vault, BATON_AGENT: 'copilot' },
        tools: ['*'],
      });
      assert.deepEqual(actions(w.run('copilot', 'connect')), ['baton.json:unchanged', 'mcp-config.json:unchanged']);
      w.run('copilot', 'disconnect');
      assert.equal(w.exists(path.join(w.home, '.copilot', 'hooks', 'baton.json')), false);
      assert.equal(w.read(mcpFile), theirs);
    });

    it('project scope: .github/hooks/baton.json only, with `baton` on PATH', () => {
      const plan = w.run('copilot', 'connect', 'project');
      assert.deepEqual(actions(plan), ['baton.json:created']);
      const text = w.read(path.join(w.project, '.github', 'hooks', 'baton.json'));
      assert.equal(text.includes(w.root), false);
      assert.equal(json(text).hooks.sessionStart[0].bash, 'baton hook copilot session-start');
    });
  });
});
