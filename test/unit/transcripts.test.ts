// The transcript readers on the shapes the host-run tests (preCompactHosts.test.ts)
// do not reach: older versions of a format, and the edges each reader decides.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { codexMessages } from '../../src/adapters/transcripts/codex';
import { copilotMessages } from '../../src/adapters/transcripts/copilot';
import { cursorMessages } from '../../src/adapters/transcripts/cursor';
import { claudeMessages } from '../../src/adapters/transcripts/claude';
import { geminiContext, geminiMessages } from '../../src/adapters/transcripts/gemini';
import { userWordsIn } from '../../src/adapters/transcripts/transcripts';
import { HANDOVER_END, withoutHandover } from '../../src/adapters/transcripts/userWords';
import { tempDir } from './support/tempVault';

const lines = (...v: unknown[]): string => v.map((x) => JSON.stringify(x)).join('\n') + '\n';

describe('transcript readers', () => {
  it('Codex: a rollout with no user_message events falls back to user response items, skipping what Codex injected', () => {
    const item = (text: string) => ({ timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
    assert.deepEqual(codexMessages(lines(item('<user_instructions>\nbe terse\n</user_instructions>'), item('<environment_context>x</environment_context>'), item('fix it'))), [
      'fix it',
    ]);
    // Older rollouts marked the user messages Codex wrote itself with `kind`.
    const event = (message: string, kind?: string) => ({ timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message, ...(kind ? { kind } : {}) } });
    assert.deepEqual(codexMessages(lines(event('<user_instructions>x</user_instructions>', 'user_instructions'), event('plain words', 'plain'), event('new words'))), [
      'plain words',
      'new words',
    ]);
  });

  it('Gemini: the older single-object session file, a repeated id replacing its record', () => {
    const file = JSON.stringify(
      {
        sessionId: 's',
        projectHash: 'p',
        startTime: 't',
        lastUpdated: 't',
        messages: [
          { id: 'a', type: 'user', content: 'first draft' },
          { id: 'b', type: 'gemini', content: 'ok' },
          { id: 'a', type: 'user', content: 'first' },
          { id: 'c', type: 'user', content: [{ text: 'sec' }, { text: 'ond' }] },
        ],
      },
      null,
      2,
    );
    assert.deepEqual(geminiMessages(file), ['first', 'second']);
  });

  it("Gemini: a hook's <hook_context> is not the user's; neither is Gemini's session context nor a compression summary; $set.messages updates", () => {
    const handover = `Baton, the session record of kestrel: below is the hand-over earlier sessions left.\n\n# Hand-over — kestrel\n\nDidn't work:\n  &gt; - mocking the clock\n${HANDOVER_END}\n`;
    const window = lines(
      { sessionId: 's', projectHash: 'p', startTime: 't', lastUpdated: 't', kind: 'main' },
      { $set: { messages: [{ id: 'ctx', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }] }] } },
      { id: 'u1', type: 'user', content: [{ text: `<hook_context>${handover}</hook_context>\n\nFix the cart` }] },
      { id: 'g1', type: 'gemini', content: 'done', tokens: { input: 300000 }, model: 'gemini-3.8-flash' },
      // After a compression Gemini sets the history to the summary and what it kept: the opening request stays said.
      {
        $set: {
          messages: [
            { id: 'sum', type: 'user', content: [{ text: '<state_snapshot>steps=1</state_snapshot>' }] },
            { id: 'g1', type: 'gemini', content: 'done' },
          ],
        },
      },
      { id: 'u2', type: 'user', content: [{ text: 'and the coupons' }] },
    );
    assert.deepEqual(geminiMessages(window), ['Fix the cart', 'and the coupons']);
    // A rewind to an id the window does not hold drops everything before it, as Gemini's loader does.
    assert.deepEqual(geminiMessages(window + lines({ $rewindTo: 'gone' }, { id: 'u3', type: 'user', content: 'again' })), ['again']);
  });

  it('Gemini: what its compression check sees, the prompt tokens since its chat last (re)started and whether anything can be compressed', () => {
    const start = [
      { sessionId: 's', projectHash: 'p' },
      { id: 'u1', type: 'user', content: 'Fix it' },
    ];
    const call = { id: 'g1', type: 'gemini', content: '', toolCalls: [{ id: 'c' }], tokens: { input: 300000 }, model: 'gemini-3.8-flash' };
    assert.deepEqual(geminiContext(lines(...start, call)), { promptTokens: 300000, model: 'gemini-3.8-flash', splittable: false });
    const answered = { id: 'g2', type: 'gemini', content: 'Done.', tokens: { input: 120 }, model: 'm' };
    assert.deepEqual(geminiContext(lines(...start, call, answered)), { promptTokens: 120, model: 'm', splittable: true });
    // A resume (or a compression) restarts Gemini's chat: its count is then an estimate, not the one recorded before.
    assert.deepEqual(geminiContext(lines(...start, call, { $set: { sessionId: 's' } }, { id: 'u2', type: 'user', content: 'Go on' })), {
      promptTokens: null,
      model: '',
      splittable: true,
    });
    assert.equal(geminiContext(lines({ type: 'user.message', data: { content: 'copilot' } })), null);
  });

  it("Baton's own hand-over is never the user's words, for any reader; without its closing line it runs to the message's end", () => {
    const handover = `Baton, the session record of kestrel: below is the hand-over.\n\n# Hand-over — kestrel\n\nNext:\n  > ship it\n${HANDOVER_END}`;
    assert.equal(withoutHandover(`${handover}\n\nwhat next?`), 'what next?');
    assert.equal(withoutHandover(`before\n# Hand-over — kestrel\n\nNext:\n  > ship it`), 'before');
    assert.equal(withoutHandover('a person saying Baton, the session record of x'), 'a person saying Baton, the session record of x');
    const dir = tempDir('baton-transcripts-');
    try {
      const claude = path.join(dir, 'claude.jsonl');
      fs.writeFileSync(
        claude,
        lines({ type: 'user', message: { role: 'user', content: handover } }, { type: 'user', message: { role: 'user', content: `${handover}\nfix the cart` } }),
      );
      assert.deepEqual(claudeMessages(fs.readFileSync(claude, 'utf8')).length, 2);
      assert.deepEqual(userWordsIn(claude, 'claude'), { opening: 'fix the cart', latest: [] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Gemini CLI 0.61.0's own recordings (the agents' tier, test/fixtures/transcripts/gemini/): the prompts typed, not the hand-over Gemini stored with one", () => {
    const dir = path.resolve(__dirname, '../fixtures/transcripts/gemini');
    const read = (name: string) => userWordsIn(path.join(dir, name), 'gemini');
    assert.deepEqual(read('resumed-and-compressed.jsonl'), { opening: 'Round the cart total to cents', latest: ['Go on'] });
    assert.deepEqual(read('with-handover.jsonl'), { opening: 'What is left to do?', latest: [] });
    const compressed = geminiContext(fs.readFileSync(path.join(dir, 'resumed-and-compressed.jsonl'), 'utf8'));
    assert.ok(compressed && compressed.splittable);
  });

  it('Cursor: text outside <user_query> is kept when there is no tag, without the timestamp Cursor adds', () => {
    assert.deepEqual(
      cursorMessages(
        lines({ role: 'user', message: { content: [{ type: 'text', text: '<timestamp>Mon</timestamp>\nplain request' }] } }, { role: 'assistant', message: { content: 'no' } }),
      ),
      ['plain request'],
    );
  });

  it('Copilot CLI: only messages the user sent', () => {
    assert.deepEqual(
      copilotMessages(
        lines(
          { type: 'user.message', data: { content: 'mine', source: 'user' } },
          { type: 'user.message', data: { content: 'a skill prompt', source: 'skill' } },
          { type: 'assistant.message', data: { content: 'x' } },
        ),
      ),
      ['mine'],
    );
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
