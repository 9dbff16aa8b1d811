// The Claude Code transcript reader on transcripts the real CLI wrote
// (Claude Code 2.1.328 in test/agents/claudeCode.test.ts, refreshed with
// BATON_AGENTS_FIXTURES=1; its conversation lines only, paths as /WORLD):
// the user's words, never Baton's hand-over, a tool result, the /compact
// echo or the compaction's summary, which all arrive as "user" or "system" lines.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { claudeMessages } from '../../src/adapters/transcripts/claude';
import { userWordsIn } from '../../src/adapters/transcripts/transcripts';

const FIXTURES = path.resolve(__dirname, '../fixtures/transcripts/claude-code');
const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

describe('Claude Code transcripts written by the real CLI', () => {
  it('a session started with the hand-over: only what the person typed', () => {
    const text = fixture('new-session.jsonl');
    assert.match(text, /"hookName":"SessionStart:startup".*Hand-over/, 'the fixture holds the hand-over the reader must skip');
    assert.deepEqual(claudeMessages(text), ['What is left to do?']);
  });

  it('a session compacted with /compact: the prompt, not the /compact echo, its output or the summary', () => {
    const text = fixture('compacted.jsonl');
    assert.match(text, /"isCompactSummary":true/);
    assert.match(text, /<command-name>\/compact<\/command-name>/);
    assert.match(text, /"type":"tool_result"/);
    assert.deepEqual(claudeMessages(text), ['Round the cart total to cents']);
    assert.deepEqual(userWordsIn(path.join(FIXTURES, 'compacted.jsonl'), 'claude'), { opening: 'Round the cart total to cents', latest: [] });
  });
});
