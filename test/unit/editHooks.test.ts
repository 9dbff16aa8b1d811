// Each host's hooks as that host runs them: connect writes the files into a
// temporary HOME, and each command is run from the written file through
// /bin/sh -c with a minimal PATH and no BATON_* variable, the host's payload
// (shapes: src/adapters/agents/FACTS.md, src/hooks/hosts.ts) on stdin, against
// a real vault and a real git repository. Then the agent's checkpoint, `why`
// and the hand-over are read back through the built CLI.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { AgentId } from '../../src/adapters/agents/agentPlan';
import { cli, ensureBuilt } from './support/cli';
import type { HostShell } from './support/hostShell';
import { hostShell } from './support/hostShell';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('edit and session hooks of every host, run as the host runs them', function () {
  this.timeout(60_000);
  let world: HostShell;
  let root: string;
  let repo: string;
  let vault: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    world = hostShell('baton-edithooks-');
    ({ root, repo, vault } = world);
    fs.mkdirSync(path.join(repo, 'src', 'sub'), { recursive: true });
  });
  afterEach(() => world.dispose());

  const commandFor = (agent: AgentId, event: string): string => world.commandFor(agent, event);
  const run = (command: string, payload: unknown, cwd = repo) => world.run(command, payload, cwd);

  const notesFile = (): string => path.join(vault, 'sessions', 'kestrel', 'uncommitted.md');
  const notes = (): string => (fs.existsSync(notesFile()) ? fs.readFileSync(notesFile(), 'utf8') : '');
  const checkpoint = async (agent: string, ...extra: string[]): Promise<string> => {
    const r = await cli(['checkpoint', '--project', 'kestrel', '--agent', agent, '--task', 'the checkout flake', ...extra], { vault, cwd: repo });
    assert.equal(r.code, 0, r.stderr);
    const file = /: (\/\S+\.md)/.exec(r.stdout)?.[1] as string;
    return fs.readFileSync(file, 'utf8');
  };
  /** The lines of one body section of a checkpoint file. */
  const section = (cp: string, heading: string): string[] => {
    const lines = cp.split('\n');
    const at = lines.indexOf(`## ${heading}`);
    if (at < 0) return [];
    const end = lines.findIndex((l, i) => i > at && l.startsWith('## '));
    return lines.slice(at + 2, end < 0 ? undefined : end).filter((l) => l.trim() !== '');
  };
  const claudeEdit = (tool: string, toolInput: Obj): Obj => ({
    session_id: 's-1',
    transcript_path: '',
    cwd: repo,
    hook_event_name: 'PostToolUse',
    tool_name: tool,
    tool_input: toolInput,
    tool_response: { success: true },
  });

  it("Claude Code: Edit/Write/NotebookEdit land once each, repo-relative, in its next checkpoint's Files, and `why` finds them", async () => {
    const command = commandFor('claude-code', 'PostToolUse');
    const edits: Obj[] = [
      claudeEdit('Edit', { file_path: path.join(repo, 'src', 'cart.ts'), old_string: 'a', new_string: 'b' }),
      claudeEdit('Write', { file_path: path.join(repo, 'src', 'sub', 'new.ts'), content: 'export {}\n' }),
      claudeEdit('NotebookEdit', { notebook_path: path.join(repo, 'analysis.ipynb'), new_source: 'x' }),
      claudeEdit('Edit', { file_path: 'src/relative.ts', old_string: 'a', new_string: 'b' }),
      // A file read is no edit, even if a host ignores the matcher (VS Code does).
      claudeEdit('Read', { file_path: path.join(repo, 'src', 'read-only.ts') }),
      // Outside the project: never recorded, absolute or through ../.
      claudeEdit('Edit', { file_path: '/etc/hosts', old_string: 'a', new_string: 'b' }),
      claudeEdit('Write', { file_path: path.join(root, 'elsewhere.ts'), content: '' }),
      claudeEdit('Edit', { file_path: '../../escape.ts', old_string: 'a', new_string: 'b' }),
      // A token in a path is masked; control characters are stripped.
      claudeEdit('Write', { file_path: path.join(repo, 'keys', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789.txt'), content: '' }),
      claudeEdit('Edit', { file_path: path.join(repo, 'src', 'ev\u001b[31mil\u202e.ts'), old_string: 'a', new_string: 'b' }),
    ];
    // The same file edited thirty times costs one line.
    for (let i = 0; i < 30; i++) edits.push(claudeEdit('Edit', { file_path: path.join(repo, 'src', 'cart.ts'), old_string: `${i}`, new_string: `${i + 1}` }));
    for (const e of edits) {
      const r = run(command, e);
      assert.deepEqual([r.code, r.stdout], [0, ''], r.stderr);
    }
    const lines = notes()
      .split('\n')
      .filter((l) => l.startsWith('- '));
    assert.deepEqual(
      lines.map((l) => l.replace(/ <!--.*/, '')),
      ['- edited: src/cart.ts', '- edited: src/sub/new.ts', '- edited: analysis.ipynb', '- edited: src/relative.ts', '- edited: keys/[REDACTED].txt', '- edited: src/evil.ts'],
    );
    assert.ok(
      lines.every((l) => / (?:<!-- [a-z_]+=[^>]* --> )?<!-- ts=\d+ agent=claude-code -->$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(!notes().includes(root), 'no absolute path of this machine in the vault');

    // Files the agent named are merged with the edited ones, each once.
    const cp = await checkpoint('claude-code', '--file', 'src/cart.ts (rewritten)', '--file', 'docs/notes.md');
    assert.deepEqual(section(cp, 'Files'), [
      '- src/cart.ts (rewritten)',
      '- docs/notes.md',
      '- src/sub/new.ts',
      '- analysis.ipynb',
      '- src/relative.ts',
      '- keys/[REDACTED].txt',
      '- src/evil.ts',
    ]);
    assert.doesNotMatch(cp, /edited:/, 'edits are Files, not State bullets');
    assert.ok(!fs.existsSync(notesFile()), 'the folded edits are gone from uncommitted.md');
    const why = await cli(['why', 'src/sub/new.ts'], { vault, cwd: repo });
    assert.match(why.stdout, /1 checkpoint\(s\) touched src\/sub\/new\.ts/);
    assert.match(why.stdout, /claude-code\s+\[src\/sub\/new\.ts\]/);
  });

  it('the edits survive a deleted .baton/ and show as one "Files edited" line in the hand-over, not as notes', async () => {
    const command = commandFor('claude-code', 'PostToolUse');
    for (const f of ['src/a.ts', 'src/b.ts', 'src/a.ts']) run(command, claudeEdit('Edit', { file_path: path.join(repo, f) }));
    assert.equal((await cli(['note', '--project', 'kestrel', '--agent', 'claude-code', 'fake timers did not help'], { vault, cwd: repo })).code, 0);
    fs.rmSync(path.join(vault, '.baton'), { recursive: true, force: true });
    const start = run(commandFor('claude-code', 'SessionStart'), { session_id: 's-2', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' });
    assert.match(
      start.stdout,
      /Uncommitted working notes \(1\):\n {2}- claude-code, .* ago:\n {4}> fake timers did not help\nFiles edited by claude-code, not yet checkpointed \(2\):\n {2}> src\/a\.ts, src\/b\.ts\n/,
    );
    assert.doesNotMatch(start.stdout, /edited:/);
    const cp = await checkpoint('claude-code');
    assert.deepEqual(section(cp, 'Files'), ['- src/a.ts', '- src/b.ts']);
    assert.match(section(cp, 'State').join('\n'), /^Recorded during the session:\n- fake timers did not help$/);
  });

  it("session start answers in each host's own shape, the hand-over inside", async () => {
    assert.equal(
      (await cli(['checkpoint', '--project', 'kestrel', '--agent', 'codex', '--task', 'checkout flake', '--failed', 'retrying the queue: same race'], { vault, cwd: repo })).code,
      0,
    );
    const base = { session_id: 's-3', transcript_path: '', cwd: repo, source: 'startup' };
    const claude = run(commandFor('claude-code', 'SessionStart'), { ...base, hook_event_name: 'SessionStart' });
    assert.match(claude.stdout, /^Baton, the session record of kestrel/);
    assert.match(claude.stdout, /retrying the queue: same race/);
    for (const [agent, event] of [
      ['codex', 'SessionStart'],
      ['gemini', 'SessionStart'],
    ] as const) {
      const out = JSON.parse(run(commandFor(agent, event), { ...base, hook_event_name: event }).stdout) as Obj; // stdout is JSON only
      assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart', agent);
      assert.match(out.hookSpecificOutput.additionalContext, /retrying the queue: same race/, agent);
    }
    const cursor = JSON.parse(
      run(commandFor('cursor', 'sessionStart'), { conversation_id: 'c-1', workspace_roots: [repo], hook_event_name: 'sessionStart', cursor_version: '2.0.77' }).stdout,
    ) as Obj;
    assert.match(cursor.additional_context, /retrying the queue: same race/);
    // Copilot CLI 1.0.102 reads a top-level additionalContext (test/agents/copilot.test.ts proves it with the real CLI).
    const copilot = run(commandFor('copilot', 'sessionStart'), { timestamp: Date.now(), cwd: repo, source: 'new', initialPrompt: 'go' });
    assert.equal(copilot.code, 0);
    assert.match((JSON.parse(copilot.stdout) as Obj).additionalContext, /retrying the queue: same race/);
  });

  it('Codex: an apply_patch names its files in the patch headers, moves at both ends', async () => {
    const command = commandFor('codex', 'PostToolUse');
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/coupon.ts',
      '+export const coupon = 1;',
      '+*** Update File: not/a/header.ts',
      '*** Update File: src/cart.ts',
      '@@ function total()',
      '-  return a;',
      '+  return a + b;',
      '*** Update File: src/old-name.ts',
      '*** Move to: src/new-name.ts',
      '@@',
      ' unchanged',
      '*** Delete File: src/dead.ts',
      '*** End Patch',
    ].join('\n');
    const payload = {
      session_id: 'x-1',
      turn_id: 't-1',
      transcript_path: null,
      cwd: repo,
      hook_event_name: 'PostToolUse',
      model: 'gpt-5',
      permission_mode: 'default',
      tool_name: 'apply_patch',
      tool_use_id: 'call_1',
      tool_input: { command: patch },
      tool_response: 'Success',
    };
    assert.deepEqual([run(command, payload).code], [0]);
    const cp = await checkpoint('codex');
    assert.deepEqual(section(cp, 'Files'), ['- src/coupon.ts', '- src/cart.ts', '- src/old-name.ts', '- src/new-name.ts', '- src/dead.ts']);
  });

  it('Cursor afterFileEdit, Gemini AfterTool and Copilot postToolUse record under their own agent names', async () => {
    run(commandFor('cursor', 'afterFileEdit'), {
      conversation_id: 'c-1',
      generation_id: 'g-1',
      hook_event_name: 'afterFileEdit',
      cursor_version: '2.0.77',
      workspace_roots: [repo],
      file_path: path.join(repo, 'src', 'toggle.tsx'),
      edits: [{ old_string: 'a', new_string: 'b' }],
    });
    const gemini = commandFor('gemini', 'AfterTool');
    for (const tool of ['write_file', 'replace']) {
      const r = run(gemini, {
        session_id: 'g-1',
        transcript_path: '',
        cwd: repo,
        hook_event_name: 'AfterTool',
        timestamp: '2026-12-01T10:00:00Z',
        tool_name: tool,
        tool_input: { file_path: path.join(repo, 'src', `${tool}.ts`), content: 'x' },
        tool_response: {},
      });
      assert.deepEqual([r.code, r.stdout], [0, ''], 'Gemini reads stdout as JSON: an edit prints nothing');
    }
    run(commandFor('copilot', 'postToolUse'), {
      timestamp: Date.now(),
      cwd: repo,
      toolName: 'edit',
      toolArgs: JSON.stringify({ path: path.join(repo, 'src', 'copilot.ts'), old_str: 'a', new_str: 'b' }),
      toolResult: { resultType: 'success' },
    });
    run(commandFor('copilot', 'postToolUse'), { timestamp: Date.now(), cwd: repo, toolName: 'bash', toolArgs: { command: 'cat src/x.ts' } });
    assert.deepEqual(section(await checkpoint('cursor'), 'Files'), ['- src/toggle.tsx']);
    assert.deepEqual(section(await checkpoint('gemini'), 'Files'), ['- src/write_file.ts', '- src/replace.ts']);
    assert.deepEqual(section(await checkpoint('copilot'), 'Files'), ['- src/copilot.ts']);
  });

  it('stop and session end leave one short lifecycle note each, within the session-end budget', async () => {
    const stop = commandFor('claude-code', 'Stop');
    for (let i = 0; i < 3; i++) run(stop, { session_id: 's-4', cwd: repo, hook_event_name: 'Stop', stop_hook_active: false });
    run(commandFor('cursor', 'stop'), { conversation_id: 'c-1', workspace_roots: [repo], hook_event_name: 'stop', cursor_version: '2.0.77', status: 'aborted' });
    // Copilot CLI 1.0.102's agentStop, as it sent it in the agents' tier: the reason is its stopReason.
    run(commandFor('copilot', 'agentStop'), { sessionId: 'p-1', timestamp: Date.now(), cwd: repo, transcriptPath: '', stopReason: 'end_turn', stop_hook_active: false });
    // A session Baton saw start: its end is noted (one that never started is not, lifecycle.test.ts).
    run(commandFor('codex', 'SessionStart'), { session_id: 'x-2', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' });
    const started = Date.now();
    const end = run(commandFor('codex', 'SessionEnd'), { session_id: 'x-2', cwd: repo, hook_event_name: 'SessionEnd', reason: 'exit' });
    assert.ok(Date.now() - started < 3000, "within Codex's 3 s cap");
    assert.deepEqual([end.code, end.stdout], [0, '']);
    const said = notes()
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.replace(/ <!--.*/, ''));
    assert.deepEqual(said, ['- lifecycle: stopped', '- lifecycle: stopped (aborted)', '- lifecycle: stopped (end_turn)', '- lifecycle: session ended (exit)']);
  });

  it("a Claude hook run by Cursor or VS Code answers that host, records its agent, and stays silent when the host's own hook is installed", async () => {
    assert.equal((await cli(['checkpoint', '--project', 'kestrel', '--agent', 'codex', '--task', 'checkout flake'], { vault, cwd: repo })).code, 0);
    const claudeStart = commandFor('claude-code', 'SessionStart');
    const cursorPayload = { conversation_id: 'c-9', workspace_roots: [repo], hook_event_name: 'sessionStart', cursor_version: '2.0.77' };
    // Only the Claude hook installed: it answers Cursor in Cursor's JSON.
    const alone = JSON.parse(run(claudeStart, cursorPayload).stdout) as Obj;
    assert.match(alone.additional_context, /checkout flake/);
    // VS Code's agent: camelCase payload, Claude-compatible JSON answer, edits recorded as copilot.
    const vscode = JSON.parse(run(claudeStart, { sessionId: 'v-1', hookEventName: 'SessionStart', cwd: repo, timestamp: '2026-12-01T10:00:00Z', source: 'new' }).stdout) as Obj;
    assert.match(vscode.hookSpecificOutput.additionalContext, /checkout flake/);
    const claudeEdit = commandFor('claude-code', 'PostToolUse');
    run(claudeEdit, { sessionId: 'v-1', hookEventName: 'PostToolUse', cwd: repo, tool_name: 'editFiles', tool_input: { files: [path.join(repo, 'src', 'vs.ts')] } });
    run(claudeEdit, { conversation_id: 'c-9', workspace_roots: [repo], hook_event_name: 'afterFileEdit', cursor_version: '2.0.77', file_path: path.join(repo, 'src', 'cur.ts') });
    assert.match(notes(), /- edited: src\/vs\.ts (?:<!-- [a-z_]+=[^>]* --> )?<!-- ts=\d+ agent=copilot -->/);
    assert.match(notes(), /- edited: src\/cur\.ts (?:<!-- [a-z_]+=[^>]* --> )?<!-- ts=\d+ agent=cursor -->/);
    // Cursor's own hook installed too: the borrowed Claude hook stays silent, Cursor's answers once.
    const cursorStart = commandFor('cursor', 'sessionStart');
    assert.deepEqual([run(claudeStart, cursorPayload).stdout], ['']);
    assert.match(String((JSON.parse(run(cursorStart, cursorPayload).stdout) as Obj).additional_context), /checkout flake/);
  });

  it('pre-compact with nothing the user said writes no capture; every registered event of every agent exits 0', async () => {
    const transcript = path.join(root, 'rollout.jsonl');
    fs.writeFileSync(transcript, JSON.stringify({ type: 'session_meta', payload: { id: 'x' } }) + '\n');
    for (const [agent, event] of [
      ['codex', 'PreCompact'],
      ['gemini', 'PreCompress'],
      ['cursor', 'preCompact'],
      ['copilot', 'preCompact'],
    ] as const) {
      const r = run(commandFor(agent, event), { session_id: 'p-1', transcript_path: transcript, cwd: repo, hook_event_name: event, trigger: 'auto' });
      assert.deepEqual([r.code, r.stdout], [0, ''], agent);
    }
    assert.ok(!fs.existsSync(path.join(vault, 'sessions')), 'no empty capture');
    for (const agent of ['claude-code', 'codex', 'cursor', 'gemini', 'copilot']) {
      for (const event of ['session-start', 'pre-compact', 'post-tool-use', 'file-edit', 'stop', 'session-end']) {
        const r = await cli(['hook', agent, event], { vault, cwd: repo, input: '{}' });
        assert.deepEqual([r.code, r.stderr], [0, ''], `${agent} ${event}`);
      }
    }
  });
});
