import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseCheckpoint, parsePlan, renderCheckpoint, renderPlan } from '../../src/adapters/markdown/checkpointFile';
import { parseNotes, renderNoteLine } from '../../src/adapters/markdown/notesFile';
import { normalizeFields, normalizeProse, oneLine, parseFields, renderBody } from '../../src/core/checkpointBody';
import type { Checkpoint } from '../../src/core/model';
import { safe } from '../../src/core/names';
import { makeCheckpoint, makeGit } from './builders';
import { checkpointFields, piece, textArb } from '../support/arbitraries';

const RUNS = { numRuns: 300 };

// Text made of the pieces that broke writers before (test/support/arbitraries.ts).
const text = textArb({ min: 300, max: 3000 });
const fieldsArb = checkpointFields(text, 5);

const name = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
  .map(safe)
  .filter((s) => s !== '');

describe('round trips (property)', () => {
  it('body: parse(render(f)) is f normalised, for any content', () => {
    fc.assert(
      fc.property(fieldsArb, (f) => {
        assert.deepEqual(parseFields(renderBody(f)), normalizeFields(f));
      }),
      RUNS,
    );
  });

  it('body: normalised fields are a fixed point of render then parse', () => {
    fc.assert(
      fc.property(fieldsArb, (f) => {
        const n = normalizeFields(f);
        assert.equal(renderBody(parseFields(renderBody(n))), renderBody(n));
      }),
      RUNS,
    );
  });

  it('checkpoint file: every field and frontmatter value comes back', () => {
    const cpArb: fc.Arbitrary<Checkpoint> = fc
      .record({
        fields: fieldsArb,
        project: fc.tuple(name, fc.option(name, { nil: undefined })).map(([p, w]) => (w ? `${p}/${w}` : p)),
        agent: name,
        handoffTo: fc.oneof(fc.constant(''), text.map(oneLine)),
        autoClosed: fc.boolean(),
        branch: text.map(oneLine),
        commit: fc.oneof(fc.stringMatching(/^[0-9a-f]{7}$/), text),
        subject: text,
        dirty: fc.nat(500),
        unreadable: fc.boolean(),
        files: fc.array(
          text.filter((s) => s !== ''),
          { maxLength: 20 },
        ),
        worktree: text,
        ts: fc.integer({ min: 1, max: 4102444800 }),
        follows: fc.oneof(fc.constant(''), text.map(oneLine)),
        extra: fc.dictionary(
          fc
            .string({ minLength: 1, maxLength: 10 })
            .filter(
              (k) =>
                /^[a-z_]+$/.test(k) &&
                k !== '__proto__' &&
                ![
                  'type',
                  'title',
                  'project',
                  'agent',
                  'session',
                  'branch',
                  'commit',
                  'worktree',
                  'touched',
                  'relations',
                  'first_seen',
                  'checkpointed',
                  'planned',
                  'handoff_to',
                  'auto_closed',
                  'commit_subject',
                  'uncommitted',
                  'uncommitted_unreadable',
                ].includes(k),
            ),
          fc.oneof(text, fc.boolean(), fc.integer(), fc.array(text, { maxLength: 3 })),
          { maxKeys: 3 },
        ),
      })
      .map((r) =>
        makeCheckpoint({
          ...r.fields,
          project: r.project,
          agent: r.agent,
          session: `20260814-143207-${r.agent}`,
          handoffTo: r.handoffTo,
          autoClosed: r.autoClosed,
          git: makeGit({ branch: r.branch, commit: r.commit, subject: r.subject, dirty: r.dirty, unreadable: r.unreadable, files: r.files, worktree: r.worktree }),
          ts: r.ts,
          follows: r.follows,
          extra: { ...r.extra },
        }),
      );
    fc.assert(
      fc.property(cpArb, (cp) => {
        const back = parseCheckpoint(renderCheckpoint(cp), cp.session, cp.project);
        // A relation's object is trimmed on reading: `[[ x ]]` and `[[x]]` name the same note.
        assert.deepEqual(back, { ...cp, ...normalizeFields(cp), follows: cp.follows.trim() });
      }),
      RUNS,
    );
  });

  it('plans: the text comes back normalised', () => {
    fc.assert(
      fc.property(name, name, fc.integer({ min: 1, max: 4102444800 }), text, (project, agent, ts, t) => {
        const p = parsePlan(renderPlan({ project, agent, ts, text: t }), `plan-20260814-141500-${agent}`, project);
        assert.equal(p.text, normalizeProse(t));
        assert.equal(p.project, project);
        assert.equal(p.agent, agent);
        assert.equal(p.ts, ts);
      }),
      RUNS,
    );
  });

  it('notes: every note comes back as its one-line text, in order', () => {
    const note = fc.record({ text, agent: name, ts: fc.nat() });
    fc.assert(
      fc.property(fc.array(note, { maxLength: 8 }), (notes) => {
        const file = notes.map(renderNoteLine).join('');
        assert.deepEqual(
          parseNotes(file),
          notes.map((n) => ({ ...n, text: oneLine(n.text) })),
        );
      }),
      RUNS,
    );
  });

  it('parsing arbitrary strings and bytes never throws', () => {
    const junk = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 400 }),
      fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('utf8')),
      fc.array(fc.oneof(piece, fc.constantFrom('---\n', '\n## ', 'relations:\n  - {', 'touched:\n  - ', ': [')), { maxLength: 30 }).map((p) => p.join('')),
      fc.array(piece, { maxLength: 20 }).map((p) => `---\n${p.join('')}\n---\n${p.reverse().join('')}`),
    );
    fc.assert(
      fc.property(junk, (s) => {
        const cp = parseCheckpoint(s, '20260814-143207-claude', 'kestrel');
        assert.equal(cp.session, '20260814-143207-claude');
        parsePlan(s, 'plan-x', 'kestrel');
        parseNotes(s);
        // What was read must render and read back as itself.
        const again = parseCheckpoint(renderCheckpoint(cp), cp.session, 'kestrel');
        assert.deepEqual(again, { ...cp, ...normalizeFields(cp) });
      }),
      { numRuns: 1000 },
    );
  });
});
