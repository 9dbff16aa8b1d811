// VS Code's agent runs the hooks of two other agents: Claude Code's
// `.claude/settings*.json` and Copilot CLI's `~/.copilot/hooks` /
// `.github/hooks/*.json` (microsoft/vscode-docs docs/agent-customization/hooks.md,
// "Hook file locations" and the FAQ). Both are run here as VS Code runs them
// (support/hostShell.ts) with the payloads its docs give: common fields
// timestamp, cwd, sessionId, hookEventName, transcript_path; PostToolUse's
// tool_name, tool_input, tool_use_id, tool_response; its tools' own names and
// camelCase inputs (create_file, replace_string_in_file, multi_replace_string_in_file).
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { cli, ensureBuilt } from './support/cli';
import type { HostShell } from './support/hostShell';
import { hostShell } from './support/hostShell';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("VS Code's agent running Baton's Claude Code and Copilot CLI hooks, with its documented payloads", function () {
  this.timeout(60_000);
  let world: HostShell;
  before(() => ensureBuilt());
  beforeEach(() => {
    world = hostShell('baton-vscodehooks-');
  });
  afterEach(() => world.dispose());

  const common = (event: string): Obj => ({ timestamp: '2026-12-01T10:30:00.000Z', cwd: world.repo, sessionId: 'vs-1', hookEventName: event, transcript_path: '' });
  const toolUse = (tool_name: string, tool_input: Obj): Obj => ({
    ...common('PostToolUse'),
    tool_name,
    tool_input,
    tool_use_id: 'tool-123',
    tool_response: 'File edited successfully',
  });
  const notes = (): string => {
    const file = path.join(world.vault, 'sessions', 'kestrel', 'uncommitted.md');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  };

  it("records the files its own edit tools name, as copilot, through Copilot CLI's hook file", () => {
    const edit = world.commandFor('copilot', 'postToolUse');
    const at = (f: string): string => path.join(world.repo, f);
    for (const payload of [
      toolUse('create_file', { filePath: at('src/new.ts'), content: 'export {}\n' }),
      toolUse('replace_string_in_file', { explanation: 'fix', filePath: at('src/cart.ts'), oldString: 'a', newString: 'b' }),
      toolUse('multi_replace_string_in_file', {
        explanation: 'two files',
        replacements: [
          { filePath: at('src/a.ts'), oldString: 'x', newString: 'y' },
          { filePath: at('src/b.ts'), oldString: 'x', newString: 'y' },
        ],
      }),
      toolUse('insert_edit_into_file', { explanation: 'add', filePath: at('src/c.ts'), code: '// …' }),
      toolUse('editFiles', { files: ['src/main.ts'] }),
      toolUse('read_file', { filePath: at('src/read-only.ts'), startLine: 1, endLine: 2 }),
      toolUse('run_in_terminal', { command: 'npm test', explanation: 'test' }),
    ]) {
      const r = world.run(edit, payload);
      assert.deepEqual([r.code, r.stdout], [0, ''], r.stderr);
    }
    const edited = notes()
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.replace(/ <!--.*/, ''));
    assert.deepEqual(edited, ['- edited: src/new.ts', '- edited: src/cart.ts', '- edited: src/a.ts', '- edited: src/b.ts', '- edited: src/c.ts', '- edited: src/main.ts']);
    assert.ok(
      notes()
        .split('\n')
        .filter((l) => l.startsWith('- '))
        .every((l) => / agent=copilot -->$/.test(l)),
    );
  });

  it('prints the hand-over once at session start: from the Copilot CLI hook when both are installed, else from the Claude hook', async () => {
    assert.equal((await cli(['checkpoint', '--project', 'kestrel', '--agent', 'codex', '--task', 'checkout flake'], { vault: world.vault, cwd: world.repo })).code, 0);
    const start = { ...common('SessionStart'), source: 'new' };
    const claudeStart = world.commandFor('claude-code', 'SessionStart');
    const alone = JSON.parse(world.run(claudeStart, start).stdout) as Obj;
    assert.equal(alone.hookSpecificOutput.hookEventName, 'SessionStart');
    assert.match(alone.hookSpecificOutput.additionalContext, /checkout flake/);

    const copilotStart = world.commandFor('copilot', 'sessionStart');
    assert.equal(world.run(claudeStart, start).stdout, '', 'the borrowed Claude hook stays silent');
    const own = JSON.parse(world.run(copilotStart, start).stdout) as Obj;
    assert.match(own.hookSpecificOutput.additionalContext, /checkout flake/);
    // Copilot CLI's own camelCase payload (as 1.0.102 sends it) gets the top-level
    // additionalContext that CLI reads; VS Code keeps its hookSpecificOutput.
    const cliOwn = JSON.parse(world.run(copilotStart, { sessionId: 'p-1', timestamp: 1764585000000, cwd: world.repo, source: 'new', initialPrompt: '' }).stdout) as Obj;
    assert.deepEqual(Object.keys(cliOwn), ['additionalContext']);
    assert.match(cliOwn.additionalContext, /checkout flake/);
  });
});
