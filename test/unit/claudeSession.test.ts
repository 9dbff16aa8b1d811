// Which checkpoints are bound to a Claude Code session, and which of their ids
// may be typed into a shell: only plain ids, never one a shell or `claude`
// could read as something else.
import { strict as assert } from 'assert';
import { claudeResumeLine, claudeSessionOf } from '../../src/core/claudeSession';
import { BatonError } from '../../src/core/errors';
import { makeCheckpoint } from './builders';

describe('claudeSession', () => {
  it('binds a Claude Code checkpoint that records its session id, with its folder and transcript', () => {
    const cp = makeCheckpoint({ agent: 'claude-code', extra: { agent_session: ' 5f3c2a9e-8b1d ', cwd: '/src/kestrel', transcript: '/t/5f3c.jsonl' } });
    assert.deepEqual(claudeSessionOf(cp), { id: '5f3c2a9e-8b1d', cwd: '/src/kestrel', transcript: '/t/5f3c.jsonl' });
    assert.deepEqual(claudeSessionOf(makeCheckpoint({ agent: 'claude', extra: { agent_session: 'x1' } })), { id: 'x1', cwd: '', transcript: '' });
  });

  it('binds nothing without an id, with a non-string id, or for another agent', () => {
    assert.equal(claudeSessionOf(makeCheckpoint({ agent: 'claude-code' })), undefined);
    assert.equal(claudeSessionOf(makeCheckpoint({ agent: 'claude-code', extra: { agent_session: 42 } })), undefined);
    assert.equal(claudeSessionOf(makeCheckpoint({ agent: 'codex', extra: { agent_session: 'abc' } })), undefined);
  });

  it('types claude --resume with a plain id', () => {
    assert.equal(claudeResumeLine('5f3c2a9e-8b1d-4c7e-9a2f-6d0b1e4c8a73'), 'claude --resume 5f3c2a9e-8b1d-4c7e-9a2f-6d0b1e4c8a73');
    assert.equal(claudeResumeLine('A_b-9'), 'claude --resume A_b-9');
  });

  it('refuses an id a shell or claude could misread', () => {
    for (const id of [
      '',
      'a;b',
      '$(id)',
      '`id`',
      'a b',
      'a\nb',
      '../x',
      '--dangerously-skip-permissions',
      '-p',
      '_x',
      'é',
      'x'.repeat(129),
      "a'b",
      'a"b',
      'a|b',
      'a&b',
      '%PATH%',
    ]) {
      assert.throws(
        () => claudeResumeLine(id),
        (e: unknown) => e instanceof BatonError && e.kind === 'refused' && /only letters, digits/.test(e.message),
        JSON.stringify(id),
      );
    }
  });
});
