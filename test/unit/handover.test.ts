import { strict as assert } from 'assert';
import { hasHandover, renderHandover } from '../../src/core/handover';
import { makeCheckpoint } from './builders';

const NOW = 1_800_000_000;

describe('the hand-over text', () => {
  it('puts what did not work before the state and the next step', () => {
    const text = renderHandover(
      {
        project: 'kestrel',
        latest: makeCheckpoint({ ts: NOW - 7200, task: 'fix checkout', failed: ['mocking stripe'], state: 'half\n\nmore', next: 'wire it', handoffTo: 'cursor' }),
        uncommitted: [{ text: 'a note', agent: 'codex', ts: NOW - 60, session: '' }],
        abandoned: [],
      },
      NOW,
    );
    assert.match(text, /by claude → cursor, 2h ago\./);
    assert.ok(text.indexOf("Didn't work") < text.indexOf('State:'));
    assert.ok(text.indexOf('State:') < text.indexOf('Next: wire it'));
    assert.match(text, /\[1m ago, codex\] a note/);
    assert.ok(!/ +\n/.test(text), 'no trailing spaces');
  });

  it('says an extractive capture and an auto-closed checkpoint are not hand-overs', () => {
    const extractive = renderHandover({ project: 'k', latest: makeCheckpoint({ extra: { capture: 'extractive' } }), uncommitted: [], abandoned: [] }, NOW);
    assert.match(extractive, /extractive capture before compaction, not a hand-over/);
    const auto = renderHandover({ project: 'k', latest: makeCheckpoint({ autoClosed: true }), uncommitted: [], abandoned: [] }, NOW);
    assert.match(auto, /auto-closed: nobody reviewed it/);
  });

  it('has nothing to hand over for an empty project', () => {
    assert.equal(hasHandover({ project: 'k', latest: null, uncommitted: [], abandoned: [] }), false);
  });
});
