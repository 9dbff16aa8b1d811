import assert from 'node:assert/strict';
import { isEmptyCheckpoint, normalizeFields, normalizeProse, oneLine, parseBody, parseFields, renderBody } from '../../src/core/checkpointBody';
import type { CheckpointFields } from '../../src/core/model';
import { emptyFields } from '../../src/core/model';

const fields = (f: Partial<CheckpointFields>): CheckpointFields => ({ ...emptyFields(), ...f });
const roundTrip = (f: Partial<CheckpointFields>): CheckpointFields => parseFields(renderBody(fields(f)));

const FULL = fields({
  task: 'Add the annual toggle to PricingTable',
  intent: 'Customers asked for yearly billing',
  state: 'Toggle renders; price math done.',
  decisions: ['keep the toggle in PricingTable — it owns the prices'],
  failed: ['a global store for the period: too much for one flag'],
  verified: ['annual price is 10x monthly — npm test -- pricing'],
  blockers: ['jsdom missing, so the component test cannot run'],
  commands: ['npm test -- pricing'],
  questions: ['round to whole euros?'],
  files: ['src/PricingTable.tsx'],
  next: 'Install jsdom and run the component test',
});

describe('renderBody', () => {
  it('writes every section in the contract order with the contract headings', () => {
    const headings = renderBody(FULL)
      .split('\n')
      .filter((l) => l.startsWith('## '));
    assert.deepEqual(headings, [
      '## Task',
      '## Intent',
      '## State',
      '## Decisions',
      "## Didn't work",
      '## Verified',
      '## Blockers',
      '## Commands run',
      '## Open questions',
      '## Files',
      '## Next',
    ]);
  });

  it('writes prose as heading, blank line, text; bullets as "- item"', () => {
    assert.equal(renderBody(fields({ task: 'T', decisions: ['a', 'b'], next: 'N' })), '## Task\n\nT\n\n## Decisions\n\n- a\n- b\n\n## Next\n\nN\n');
  });

  it('writes only non-empty sections, and nothing at all for empty fields', () => {
    assert.equal(renderBody(emptyFields()), '');
    assert.equal(renderBody(fields({ task: '  \n ', decisions: ['', '  '], next: 'go' })), '## Next\n\ngo\n');
  });

  it('folds a bullet item onto one line', () => {
    assert.equal(renderBody(fields({ decisions: ['one\ntwo\t\tthree\r\n\r\nfour'] })), '## Decisions\n\n- one two three four\n');
  });

  it('escapes a prose line that starts with # by one backslash', () => {
    const body = renderBody(fields({ task: 'first\n## Next\n  # h1\n\\## already\nnot # here' }));
    assert.equal(body, '## Task\n\nfirst\n\\## Next\n  \\# h1\n\\\\## already\nnot # here\n');
  });
});

describe('parseBody', () => {
  it('reads back every field', () => {
    assert.deepEqual(roundTrip(FULL), FULL);
  });

  it('keeps a colon in the task', () => {
    assert.equal(roundTrip({ task: 'fix: the parser: again' }).task, 'fix: the parser: again');
  });

  it('keeps a hand-written bullet that holds a bare CR or a line separator, as one item', () => {
    const got = parseBody("## Didn't work\n\n- one\rtwo\n- three\u2028four\n- five\u0085six\n- seven\n");
    assert.deepEqual(got.failed, ['one two', 'three four', 'five six', 'seven']);
  });

  it('does not let "## Next" typed inside a task end it or forge a section', () => {
    const task = 'wrote the plan\n## Next\nthis is still the task\n## Decisions\n- not a decision';
    const got = roundTrip({ task, next: 'the real next' });
    assert.equal(got.task, task);
    assert.equal(got.next, 'the real next');
    assert.deepEqual(got.decisions, []);
  });

  it('keeps backslashes before # exactly', () => {
    for (const task of ['\\# one', '\\\\## two', '  \\\\\\# three', '#', '\\', 'a\\#b']) {
      assert.equal(roundTrip({ task }).task, task, task);
    }
  });

  it('keeps a prose line that is exactly ---', () => {
    assert.equal(roundTrip({ state: 'above\n---\nbelow' }).state, 'above\n---\nbelow');
    assert.equal(roundTrip({ state: '---' }).state, '---');
  });

  it('leaves a missing section absent, not empty', () => {
    const got = parseBody('## Task\n\nonly a task\n');
    assert.equal(got.decisions, undefined);
    assert.ok(!('next' in got));
    assert.deepEqual(got, { task: 'only a task' });
  });

  it('leaves a heading with nothing under it absent too', () => {
    assert.deepEqual(parseBody('## Decisions\n\n(none)\n\n## State\n\n  \n## Task\n\nt\n'), { task: 't' });
  });

  it('ignores text before the first heading and unknown headings', () => {
    const got = parseBody('# Title\n\npreamble\n- not a bullet of anything\n## Mood\n\n- cheerful\n## Decisions\n\n- real\n');
    assert.deepEqual(got, { decisions: ['real'] });
  });

  it('accepts -, * and + bullets, and drops empty ones', () => {
    assert.deepEqual(parseBody('## Verified\n\n- a\n* b\n+ c\n-\n- \n-d\n').verified, ['a', 'b', 'c']);
  });

  it('joins an indented continuation line to its bullet', () => {
    assert.deepEqual(parseBody('## Decisions\n\n- a long\n  wrapped item\n- next\n').decisions, ['a long wrapped item', 'next']);
  });

  it('reads CRLF files, loose heading spelling and a smart apostrophe', () => {
    const got = parseBody('## task\r\n\r\nT\r\n\r\n##  Didn’t Work ##\r\n\r\n- x\r\n');
    assert.deepEqual(got, { task: 'T', failed: ['x'] });
  });

  it('joins a section repeated by hand instead of losing one', () => {
    assert.deepEqual(parseBody('## Decisions\n\n- a\n\n## Decisions\n\n- b\n').decisions, ['a', 'b']);
  });

  it('never throws on junk', () => {
    for (const junk of ['', '\u0000\u0001\uffff', '##', '## \n## \n', '- a', '\\'.repeat(1000), '\ud800']) {
      assert.doesNotThrow(() => parseBody(junk));
    }
  });
});

describe('normalizeProse', () => {
  it('turns CRLF into LF and trims leading blank lines and trailing whitespace', () => {
    assert.equal(normalizeProse('\n  \r\n  indented\r\nline  \n\n'), '  indented\nline');
  });

  it('keeps inner blank lines and indentation', () => {
    assert.equal(normalizeProse('a\n\n\n  b'), 'a\n\n\n  b');
  });
});

describe('normalizeFields and oneLine', () => {
  it('give what a round trip gives', () => {
    const messy = fields({ task: '\n\ntask  \r\n', decisions: [' a\nb ', '', '\t'], next: ' x ' });
    assert.deepEqual(roundTrip(messy), normalizeFields(messy));
    assert.equal(oneLine(' a\u2028b\tc '), 'a b c');
  });
});

describe('isEmptyCheckpoint', () => {
  it('is empty with nothing, or only commands, files and intent', () => {
    assert.ok(isEmptyCheckpoint(emptyFields()));
    assert.ok(isEmptyCheckpoint(fields({ commands: ['npm test'], files: ['a.ts'], intent: 'why' })));
    assert.ok(isEmptyCheckpoint(fields({ task: '   ', decisions: ['  '] })));
    assert.ok(isEmptyCheckpoint({}));
  });

  it('is not empty with any of the fields that say something', () => {
    const one: Partial<CheckpointFields>[] = [
      { task: 't' },
      { state: 's' },
      { next: 'n' },
      { decisions: ['d'] },
      { failed: ['f'] },
      { questions: ['q'] },
      { verified: ['v'] },
      { blockers: ['b'] },
    ];
    for (const f of one) assert.equal(isEmptyCheckpoint(fields(f)), false, JSON.stringify(f));
  });
});
