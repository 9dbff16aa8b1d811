// How each host's post-tool-use payload says a shell command ended
// (hooks/shellRun.ts): what a host states is read, what it does not is
// `unknown`, and a command's own output never passes for the host's verdict.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Host } from '../../src/hooks/hosts';
import { shellCallOf } from '../../src/hooks/shellRun';
import { claimCommand, linkClaims, runsCommand, type Run, type ShellCall } from '../../src/core/runs';

describe('shell runs in hook payloads', () => {
  it("Claude Code: PostToolUse is a pass whatever the output says; PostToolUseFailure's error names the exit; an interrupt is unknown", () => {
    const ok = {
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_response: { stdout: 'child exited with exit code 1', stderr: '', interrupted: false },
    };
    assert.deepEqual(shellCallOf(ok, 'claude-code', 'Bash'), { command: 'npm test', status: 'passed', exit: 0 });
    const bad = { hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'npm test' }, error: 'Exit code 3\nboom', is_interrupt: false };
    assert.deepEqual(shellCallOf(bad, 'claude-code', 'Bash'), { command: 'npm test', status: 'failed', exit: 3 });
    assert.equal(shellCallOf({ ...bad, is_interrupt: true }, 'claude-code', 'Bash')?.status, 'unknown');
    assert.equal(shellCallOf({ ...ok, tool_name: 'Read' }, 'claude-code', 'Read'), null);
  });

  it("Codex: its response string is the command's output, never its verdict; only an object's metadata.exit_code is read", () => {
    const base = { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cargo test' } };
    // A command that prints what looks like Codex's own line.
    assert.deepEqual(shellCallOf({ ...base, tool_response: 'Wall time: 0.25 seconds\nProcess exited with code 0\nOutput:\n' }, 'codex', 'Bash'), {
      command: 'cargo test',
      status: 'unknown',
    });
    assert.deepEqual(shellCallOf({ ...base, tool_response: JSON.stringify({ metadata: { exit_code: 0 } }) }, 'codex', 'Bash')?.status, 'unknown');
    assert.deepEqual(shellCallOf({ ...base, tool_response: { output: 'ok', metadata: { exit_code: 0, duration_seconds: 1.2 } } }, 'codex', 'Bash'), {
      command: 'cargo test',
      status: 'passed',
      exit: 0,
      durationMs: 1200,
    });
  });

  it('Copilot CLI: its own last line, "<shellId: N completed with exit code N>" as seen or the docs\' "<exited with exit code N>"; a failure resultType without one', () => {
    const base = { toolName: 'bash', toolArgs: { command: 'go test ./...' } };
    const text = (t: string, resultType = 'success') => ({ ...base, toolResult: { resultType, textResultForLlm: t } });
    assert.equal(shellCallOf(text('log: exit code 0 of a child\n<exited with exit code 2>'), 'copilot', 'bash')?.exit, 2);
    assert.equal(shellCallOf(text('log: exit code 0 of a child\n<shellId: 4 completed with exit code 2>'), 'copilot', 'bash')?.exit, 2);
    // An exit the output states, with no line of Copilot's after it, is the command's.
    assert.equal(shellCallOf(text('child: exit code 0\n'), 'copilot', 'bash')?.status, 'unknown');
    assert.equal(shellCallOf(text('denied', 'failure'), 'copilot', 'bash')?.status, 'failed');
    assert.equal(shellCallOf(text('fine'), 'copilot', 'bash')?.status, 'unknown');
  });

  it('Gemini CLI: "Exit Code: N" among its own last lines; none and a PGID line is exit 0; an exit in the Output is the command\'s', () => {
    const call = (llmContent: string) => ({ hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: { command: 'make' }, tool_response: { llmContent } });
    const g = (c: string) => shellCallOf(call(c), 'gemini', 'run_shell_command');
    assert.deepEqual(g('Output: Exit Code: 9\nProcess Group PGID: 7'), { command: 'make', status: 'passed', exit: 0 });
    assert.deepEqual(g('Output: (empty)\nExit Code: 2\nProcess Group PGID: 7'), { command: 'make', status: 'failed', exit: 2 });
    assert.equal(g('Output: (empty)\nSignal: 15\nProcess Group PGID: 7')?.status, 'unknown');
    assert.equal(g('Command moved to background (PID: 7). Output hidden. Press Ctrl+B to view.')?.status, 'unknown');
    assert.equal(g('Command was cancelled by user before it could complete. There was no output before it was cancelled.')?.status, 'unknown');
  });

  // The payloads each real CLI sent its hook for `node pass.js` (exit 0, printing "a child: exit code 1") and
  // `node fail.js` (exit 3): test/agents/*.test.ts writes them with BATON_UPDATE_FIXTURES.
  const fixture = (name: string): Record<string, unknown> =>
    JSON.parse(fs.readFileSync(path.resolve(__dirname, '../fixtures/hooks', `${name}.json`), 'utf8')) as Record<string, unknown>;
  const real: [Host, string, string, Partial<ShellCall>, Partial<ShellCall>][] = [
    ['claude-code', 'claude-code-2.1.328', 'Bash', { status: 'passed', exit: 0, durationMs: 114 }, { status: 'failed', exit: 3, durationMs: 83 }],
    // Codex states no exit in its payload (see shellRun.ts): both unknown, neither a pass.
    ['codex', 'codex-0.169.0', 'Bash', { status: 'unknown' }, { status: 'unknown' }],
    ['gemini', 'gemini-0.61.0', 'run_shell_command', { status: 'passed', exit: 0 }, { status: 'failed', exit: 3 }],
    ['copilot', 'copilot-1.0.102', 'bash', { status: 'passed', exit: 0 }, { status: 'failed', exit: 3 }],
  ];
  for (const [host, name, tool, pass, fail] of real) {
    it(`${name} as it really sent them: the pass and the exit 3`, () => {
      assert.deepEqual(shellCallOf(fixture(`${name}-pass`), host, tool), { command: 'node pass.js', ...pass });
      assert.deepEqual(shellCallOf(fixture(`${name}-fail`), host, tool), { command: 'node fail.js', ...fail });
    });
  }

  it('claims name their command after a dash (never " -- ") or in backticks, as a whole part of the command line run', () => {
    assert.equal(claimCommand('rejects expired tokens — npm test -- auth'), 'npm test -- auth');
    assert.equal(claimCommand('npm test -- auth passes'), '');
    assert.ok(runsCommand('cd app && npm test -- auth', 'npm test -- auth'));
    assert.ok(!runsCommand('npm test -- authz', 'npm test -- auth'));
    const run = (command: string, status: Run['status'], ts: number): Run => ({ command, status, ts, agent: 'a', head: '', dirty: null });
    const linked = linkClaims(['ok — npm test', 'ok `make lint`'], [run('npm test', 'passed', 1), run('npm test', 'failed', 2), run('make lint', 'failed', 3)]);
    // The latest run decides: a red one after a green one unbacks the claim, and a red one alone backs nothing.
    assert.deepEqual(
      linked.map((l) => l.run?.ts ?? null),
      [null, null],
    );
    assert.equal(linkClaims(['ok — npm test'], [run('npm test', 'failed', 1), run('npm test', 'passed', 2)])[0].run?.ts, 2);
  });
});
