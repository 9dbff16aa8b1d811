// The Codex rollout reader on rollouts the real Codex CLI 0.169.0 wrote in
// test/agents/codex.test.ts (made small, this machine's paths as /ROOT;
// rewritten by BATON_UPDATE_FIXTURES=1 on that test), beside the documented
// shapes in transcripts.test.ts: the person's prompt only, never the
// environment context, the developer messages nor Baton's hand-over that the
// SessionStart hook injected, nor the compaction summary.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { codexMessages } from '../../src/adapters/transcripts/codex';

const dir = path.resolve(__dirname, '../fixtures/transcripts/codex');
const read = (f: string): string => fs.readFileSync(path.join(dir, f), 'utf8');

describe('Codex rollouts the real CLI wrote', () => {
  it('session 1 (a note, apply_patch, a checkpoint, a compaction): the prompt the person gave', () => {
    assert.deepEqual(codexMessages(read('codex-0.169.0-session1.jsonl')), ['Make the cart total count item quantities.']);
  });
  it("session 2 (Baton's hand-over injected at session start): the prompt, not the hand-over", () => {
    const text = read('codex-0.169.0-session2.jsonl');
    assert.match(text, /Hand-over/, 'the fixture holds the injected hand-over');
    assert.deepEqual(codexMessages(text), ['Carry on with the cart.']);
  });
});
