// The transcript readers on the shapes the host-run tests (preCompactHosts.test.ts)
// do not reach: older versions of a format, and the edges each reader decides.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { codexMessages } from '../../src/adapters/transcripts/codex';
import { copilotMessages } from '../../src/adapters/transcripts/copilot';
import { cursorMessages } from '../../src/adapters/transcripts/cursor';
import { geminiMessages } from '../../src/adapters/transcripts/gemini';
import { userWordsIn } from '../../src/adapters/transcripts/transcripts';
import { tempDir } from './support/tempVault';

const lines = (...v: unknown[]): string => v.map((x) => JSON.stringify(x)).join('\n') + '\n';

describe('transcript readers', () => {
  it('Codex: a rollout with no user_message events falls back to user response items, skipping what Codex injected', () => {
    const item = (text: string) => ({ timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
    assert.deepEqual(codexMessages(lines(item('<user_instructions>\nbe terse\n</user_instructions>'), item('<environment_context>x</environment_context>'), item('fix it'))), ['fix it']);
    // Older rollouts marked the user messages Codex wrote itself with `kind`.
    const event = (message: string, kind?: string) => ({ timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message, ...(kind ? { kind } : {}) } });
    assert.deepEqual(codexMessages(lines(event('<user_instructions>x</user_instructions>', 'user_instructions'), event('plain words', 'plain'), event('new words'))), ['plain words', 'new words']);
  });

  it('Gemini: the older single-object session file, a repeated id replacing its record', () => {
    const file = JSON.stringify(
      { sessionId: 's', projectHash: 'p', startTime: 't', lastUpdated: 't', messages: [{ id: 'a', type: 'user', content: 'first draft' }, { id: 'b', type: 'gemini', content: 'ok' }, { id: 'a', type: 'user', content: 'first' }, { id: 'c', type: 'user', content: [{ text: 'sec' }, { text: 'ond' }] }] },
      null,
      2,
    );
    assert.deepEqual(geminiMessages(file), ['first', 'second']);
  });

  it('Cursor: text outside <user_query> is kept when there is no tag, without the timestamp Cursor adds', () => {
    assert.deepEqual(cursorMessages(lines({ role: 'user', message: { content: [{ type: 'text', text: '<timestamp>Mon</timestamp>\nplain request' }] } }, { role: 'assistant', message: { content: 'no' } })), ['plain request']);
  });

  it('Copilot CLI: only messages the user sent', () => {
    assert.deepEqual(copilotMessages(lines({ type: 'user.message', data: { content: 'mine', source: 'user' } }, { type: 'user.message', data: { content: 'a skill prompt', source: 'skill' } }, { type: 'assistant.message', data: { content: 'x' } })), ['mine']);
  });

  it('an unknown format is read by the first reader that finds words; a file of none gives none', () => {
    const dir = tempDir('baton-transcripts-');
    try {
      const copilot = path.join(dir, 'events.jsonl');
      fs.writeFileSync(copilot, lines({ type: 'user.message', data: { content: 'open' } }, { type: 'user.message', data: { content: 'later' } }));
      assert.deepEqual(userWordsIn(copilot, 'unknown'), { opening: 'open', latest: ['later'] });
      assert.deepEqual(userWordsIn(copilot, 'claude'), { opening: '', latest: [] });
      const junk = path.join(dir, 'junk');
      fs.writeFileSync(junk, '\u0000\u00ff not a transcript');
      assert.deepEqual(userWordsIn(junk, 'unknown'), { opening: '', latest: [] });
      assert.throws(() => userWordsIn(path.join(dir, 'gone'), 'codex'), /ENOENT/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
