// How each host's post-tool-use payload says a shell command ended
// (hooks/shellRun.ts): what a host states is read, what it does not is
// `unknown`, and a command's own output never passes for the host's verdict.
import { strict as assert } from 'assert';
import { shellCallOf } from '../../src/hooks/shellRun';
import { claimCommand, linkClaims, runsCommand, type Run } from '../../src/core/runs';

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

  it('Codex: the exit and wall time its output states, or metadata.exit_code in a JSON response; unknown when unstated', () => {
    const base = { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cargo test' } };
    assert.deepEqual(shellCallOf({ ...base, tool_response: 'Wall time: 0.25 seconds\nProcess exited with code 101\nOutput:\n' }, 'codex', 'Bash'), {
      command: 'cargo test',
      status: 'failed',
      exit: 101,
      durationMs: 250,
    });
    const json = JSON.stringify({ output: 'ok', metadata: { exit_code: 0, duration_seconds: 1.2 } });
    assert.deepEqual(shellCallOf({ ...base, tool_response: json }, 'codex', 'Bash'), { command: 'cargo test', status: 'passed', exit: 0, durationMs: 1200 });
    assert.deepEqual(shellCallOf({ ...base, tool_response: '' }, 'codex', 'Bash'), { command: 'cargo test', status: 'unknown' });
  });

  it("Copilot CLI: the last exit line of its result's text, a failure resultType without one", () => {
    const base = { toolName: 'bash', toolArgs: { command: 'go test ./...' } };
    const text = (t: string, resultType = 'success') => ({ ...base, toolResult: { resultType, textResultForLlm: t } });
    assert.equal(shellCallOf(text('log: exit code 0 of a child\n<exited with exit code 2>'), 'copilot', 'bash')?.exit, 2);
    assert.equal(shellCallOf(text('denied', 'failure'), 'copilot', 'bash')?.status, 'failed');
    assert.equal(shellCallOf(text('fine'), 'copilot', 'bash')?.status, 'unknown');
  });

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
