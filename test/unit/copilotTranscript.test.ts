// Copilot CLI's session log read as the user's words, from the logs the real
// CLI 1.0.102 wrote in the agents' tier (test/agents/copilot.test.ts, written
// again with BATON_AGENTS_WRITE_FIXTURES=1; long strings cut, this machine's
// paths made /WORLD), beside the documented shapes in transcripts.test.ts.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { copilotMessages } from '../../src/adapters/transcripts/copilot';
import { userWordsIn } from '../../src/adapters/transcripts/transcripts';

const DIR = path.resolve(__dirname, '../fixtures/transcripts/copilot');
const fixture = (name: string): string => path.join(DIR, name);

describe("Copilot CLI 1.0.102's own session logs (test/fixtures/transcripts/copilot/)", () => {
  it('session 1 (a note, an apply_patch, a checkpoint, a compaction): the prompt typed, not the compaction summary', () => {
    const log = fs.readFileSync(fixture('session1.events.jsonl'), 'utf8');
    assert.match(log, /"session\.compaction_complete"/, 'the fixture holds the compaction');
    assert.deepEqual(copilotMessages(log), ['Fix the cart total rounding.']);
    assert.deepEqual(userWordsIn(fixture('session1.events.jsonl'), 'copilot'), { opening: 'Fix the cart total rounding.', latest: [] });
  });

  it("session 2: the prompt typed, never the hand-over Baton's session-start hook injected (logged as the hook's output)", () => {
    const log = fs.readFileSync(fixture('session2.events.jsonl'), 'utf8');
    assert.match(log, /"additionalContext":"Baton, the session record of shop/, 'the fixture holds the injected hand-over');
    assert.deepEqual(copilotMessages(log), ['Carry on with the cart.']);
    // VS Code's agent names a transcript of a format it does not document: every reader is tried, and this one answers.
    assert.deepEqual(userWordsIn(fixture('session2.events.jsonl'), 'unknown'), { opening: 'Carry on with the cart.', latest: [] });
  });

  it('holds no path of the machine that wrote it', () => {
    for (const f of fs.readdirSync(DIR)) assert.doesNotMatch(fs.readFileSync(path.join(DIR, f), 'utf8'), /(?<!\/WORLD)\/(?:tmp|home|root|Users)\//, f);
  });
});
