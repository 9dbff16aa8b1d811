// The past-session readers on the shapes older versions wrote, as their
// sources describe them (gemini.ts: the single-object chat recording; codex.ts
// and protocol.rs: user_message events, patch_apply_begin, exec_command_end;
// claude.ts: sidechain lines), built as small files, since no real CLI of
// those versions runs here.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { readClaudeSession } from '../../src/adapters/transcripts/claudePast';
import { readCodexSession } from '../../src/adapters/transcripts/codexPast';
import { readGeminiSession } from '../../src/adapters/transcripts/geminiPast';
import { MAX_COMMANDS } from '../../src/adapters/transcripts/pastSession';
import { tempDir } from './support/tempVault';

const jsonl = (records: unknown[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('past sessions in older shapes', () => {
  let dir: string;
  before(() => {
    dir = tempDir('baton-older-');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string): string => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, text);
    return f;
  };

  it('Gemini CLI: one JSON object with a messages array (session-….json)', () => {
    const f = write(
      'session-old.json',
      JSON.stringify({
        sessionId: 'g-old',
        startTime: '2025-09-01T10:00:00.000Z',
        lastUpdated: '2025-09-01T10:20:00.000Z',
        messages: [
          { id: '1', timestamp: '2025-09-01T10:00:01.000Z', type: 'user', content: [{ text: 'Fix the flaky login test' }] },
          {
            id: '2',
            timestamp: '2025-09-01T10:05:00.000Z',
            type: 'gemini',
            content: '',
            toolCalls: [
              { id: 'a', name: 'write_file', args: { file_path: '/w/app/test/login.test.ts' }, status: 'success' },
              { id: 'b', name: 'run_shell_command', args: { command: 'npm test' }, status: 'error' },
            ],
          },
          { id: '3', timestamp: '2025-09-01T10:19:00.000Z', type: 'gemini', content: 'The login test waits for the redirect now.' },
        ],
      }),
    );
    const s = readGeminiSession(f);
    assert.equal(s.id, 'g-old');
    assert.equal(s.task, 'Fix the flaky login test');
    assert.equal(s.lastMessage, 'The login test waits for the redirect now.');
    assert.deepEqual(s.files, ['/w/app/test/login.test.ts']);
    assert.deepEqual(s.commands, [{ command: 'npm test', failed: true }]);
    assert.equal(s.started, Date.parse('2025-09-01T10:00:00.000Z') / 1000);
    assert.equal(s.ended, Date.parse('2025-09-01T10:20:00.000Z') / 1000);
  });

  it('Codex CLI: user_message events over injected items, patch_apply_begin, exec_command_end, agent_message', () => {
    const at = (s: number): string => new Date(Date.UTC(2025, 6, 1, 9, 0, s)).toISOString();
    const f = write(
      'rollout-old.jsonl',
      jsonl([
        { timestamp: at(0), type: 'session_meta', payload: { id: 'c-old', cwd: '/w/api', git: { branch: 'fix-auth', commit_hash: '0123456789abcdef0123456789abcdef01234567' } } },
        {
          timestamp: at(1),
          type: 'response_item',
          payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }] },
        },
        { timestamp: at(2), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Make expired tokens fail with 401' }] } },
        { timestamp: at(2), type: 'event_msg', payload: { type: 'user_message', message: 'Make expired tokens fail with 401', kind: 'plain' } },
        { timestamp: at(3), type: 'event_msg', payload: { type: 'patch_apply_begin', call_id: 'p1', changes: { '/w/api/src/auth.rs': { update: {} } } } },
        { timestamp: at(4), type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'e1', command: ['bash', '-lc', 'cargo test auth'], exit_code: 101 } },
        { timestamp: at(5), type: 'event_msg', payload: { type: 'agent_message', message: 'Expired tokens get 401; one test still fails.' } },
      ]),
    );
    const s = readCodexSession(f);
    assert.equal(s.id, 'c-old');
    assert.equal(s.cwd, '/w/api');
    assert.equal(s.branch, 'fix-auth');
    assert.equal(s.task, 'Make expired tokens fail with 401');
    assert.deepEqual(s.files, ['/w/api/src/auth.rs']);
    assert.deepEqual(s.commands, [{ command: 'cargo test auth', exit: 101 }]);
    assert.equal(s.lastMessage, 'Expired tokens get 401; one test still fails.');
  });

  it('keeps the latest commands of a long session and counts the ones it let go of', () => {
    const lines = [{ type: 'user', sessionId: 'k', cwd: '/w/k', timestamp: '2025-05-01T08:00:00Z', message: { role: 'user', content: 'Run the suite until it passes' } }];
    for (let i = 0; i < MAX_COMMANDS + 5; i++) {
      lines.push({
        type: 'assistant',
        sessionId: 'k',
        cwd: '/w/k',
        timestamp: '2025-05-01T08:01:00Z',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: `run ${i}` } }] },
      } as never);
    }
    const s = readClaudeSession(write('many.jsonl', jsonl(lines)));
    assert.equal(s.commands.length, MAX_COMMANDS);
    assert.equal(s.commands[0].command, 'run 5');
    assert.equal(s.commandsLeftOut, 5);
  });

  it("Claude Code: a sub-agent's answer is not the agent's last message to the person", () => {
    const f = write(
      'claude.jsonl',
      jsonl([
        { type: 'user', sessionId: 'k', cwd: '/w/k', timestamp: '2025-05-01T08:00:00Z', message: { role: 'user', content: 'Find where totals are rounded' } },
        { type: 'assistant', sessionId: 'k', timestamp: '2025-05-01T08:01:00Z', message: { role: 'assistant', content: [{ type: 'text', text: 'In cart.ts, total().' }] } },
        {
          type: 'assistant',
          isSidechain: true,
          sessionId: 'k',
          timestamp: '2025-05-01T08:00:30Z',
          message: { role: 'assistant', content: [{ type: 'text', text: 'sub-agent report' }] },
        },
      ]),
    );
    const s = readClaudeSession(f);
    assert.equal(s.lastMessage, 'In cart.ts, total().');
    assert.equal(s.ended, Date.parse('2025-05-01T08:01:00Z') / 1000);
  });
});
