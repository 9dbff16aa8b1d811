// Scenario 3: round trips by property, at the level of the vault. Where
// test/unit/roundtrip.property.test.ts renders and parses strings, this
// commits through the core (masking, folding, locks, atomic files, the real
// folder) and reads back through history, sessions and plans; and it fills
// vault files with arbitrary bytes and asks every view to answer.
import { strict as assert } from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { openBaton } from '../../src/app/openBaton';
import type { Baton } from '../../src/core/baton';
import { normalizeFields, normalizeProse, oneLine } from '../../src/core/checkpointBody';
import { BatonError } from '../../src/core/errors';
import type { CheckpointFields } from '../../src/core/model';
import { safe, safeScope } from '../../src/core/names';
import { maskFields, maskSecrets } from '../../src/core/secrets';
import { foldedLines, removeTree, tempRoot } from './support';
import { checkpointFields, piece, textArb } from '../support/arbitraries';

const RUNS = Number(process.env.CHAOS_PROPERTY_RUNS ?? 150);
const T0 = Date.UTC(2026, 7, 14, 14, 32, 7) / 1000;

// Text made of the pieces that broke writers before (test/support/arbitraries.ts), with long runs.
const text = textArb({ min: 2000, max: 12000 }, 6);
const fieldsArb = checkpointFields(text, 4);
const nameArb = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((s) => safe(s) !== '');
// A project is a scope: any name safeScope takes (it refuses more than one
// "/", which a random string has now and then; names.test.ts tests that).
const scopeTaken = (s: string): boolean => {
  try {
    safeScope(s);
    return true;
  } catch {
    return false;
  }
};
const projectArb = nameArb.filter(scopeTaken);

/** What the core writes for these fields: masked, then normalised as files store them. */
const stored = (f: CheckpointFields): CheckpointFields => normalizeFields(maskFields(f).value);
const blank = (f: CheckpointFields): boolean =>
  [f.task, f.state, f.next].every((s) => s.trim() === '') && [f.decisions, f.failed, f.questions, f.verified, f.blockers].every((l) => l.length === 0);

describe('chaos 3: round trips through the vault (property)', function () {
  this.timeout(10 * 60_000);
  let root: string;
  let n = 0;
  const fresh = (): { baton: Baton; dir: string; clock: { t: number } } => {
    const dir = path.join(root, `v${n++}`);
    const clock = { t: T0 };
    return { baton: openBaton(dir, { clock: { now: () => clock.t } }), dir, clock };
  };
  before(() => {
    root = tempRoot('baton-chaos3-');
  });
  after(() => removeTree(root));

  it('a checkpoint committed with any field contents reads back identical from history', async () => {
    await fc.assert(
      fc.asyncProperty(fieldsArb, projectArb, nameArb, async (fields, project, agent) => {
        const { baton } = fresh();
        let result;
        try {
          result = await baton.commit({ scope: project, agent, fields });
        } catch (err) {
          // Refused only when there is nothing in it.
          assert.ok(err instanceof BatonError && /Nothing to checkpoint/.test(err.message), String(err));
          assert.ok(blank(stored(fields)), 'refused a checkpoint that has content');
          return;
        }
        const history = await baton.history(project);
        assert.equal(history.length, 1, `an acknowledged checkpoint (${result.checkpoint.session}) is listed in history`);
        const back = history[0];
        const want = stored(fields);
        const got: CheckpointFields = {
          task: back.task,
          intent: back.intent,
          state: back.state,
          decisions: back.decisions,
          failed: back.failed,
          verified: back.verified,
          blockers: back.blockers,
          commands: back.commands,
          questions: back.questions,
          files: back.files,
          next: back.next,
        };
        assert.deepEqual(got, want);
        assert.equal(back.agent, safe(agent));
        assert.equal(back.session, result.checkpoint.session);
      }),
      { numRuns: RUNS },
    );
  });

  it('notes with any text read back as acknowledged, then fold into State one bullet each', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 6 }), nameArb, async (texts, agent) => {
        const { baton, clock } = fresh();
        const acked: string[] = [];
        for (const t of texts) {
          clock.t += 1;
          try {
            acked.push((await baton.note('kestrel', agent, t)).note.text);
          } catch (err) {
            assert.ok(err instanceof BatonError && /The note is empty/.test(err.message), String(err));
            assert.equal(maskSecrets(oneLine(t)).text, '', 'refused a note that has text');
          }
        }
        const open = (await baton.sessions('kestrel')).uncommitted.map((x) => x.text);
        assert.deepEqual(open, acked, 'uncommitted notes read back exactly as acknowledged');
        if (acked.length === 0) return;
        const r = await baton.commit({ scope: 'kestrel', agent, fields: { task: 'fold' } });
        assert.equal(r.folded, acked.length);
        const [cp] = await baton.history('kestrel');
        const file = fs.readFileSync(r.path, 'utf8');
        assert.deepEqual(foldedLines(file), acked, 'each note is one "- text" bullet under "Recorded during the session:" on disk');
        assert.ok(cp.state.endsWith(`Recorded during the session:\n${acked.map((a) => `- ${a}`).join('\n')}`), 'and in the State read back');
        assert.deepEqual((await baton.sessions('kestrel')).uncommitted, [], 'folded notes are no longer open');
      }),
      { numRuns: RUNS },
    );
  });

  it('a plan with any text reads back as written', async () => {
    await fc.assert(
      fc.asyncProperty(text, nameArb, async (t, agent) => {
        const { baton } = fresh();
        const masked = maskSecrets(t.trim()).text;
        let saved;
        try {
          saved = await baton.savePlan('kestrel', agent, t);
        } catch (err) {
          assert.ok(err instanceof BatonError && /The plan is empty/.test(err.message), String(err));
          assert.equal(masked, '');
          return;
        }
        const plans = await baton.plans('kestrel');
        assert.equal(plans.length, 1);
        assert.equal(plans[0].text, normalizeProse(masked));
        assert.equal(plans[0].text, saved.plan.text, 'the plan returned is the plan stored');
      }),
      { numRuns: RUNS },
    );
  });

  it('arbitrary bytes in any vault file break no view and hide no good checkpoint', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 3000 }),
      fc.array(piece, { maxLength: 40 }).map((p) => new Uint8Array(Buffer.from(p.join('')))),
      fc
        .array(fc.oneof(piece, fc.constantFrom('---\n', '\n## ', 'relations:\n  - {', 'touched:\n  - ', ': [', '- x <!-- ts=', '\n')), { maxLength: 40 })
        .map((p) => new Uint8Array(Buffer.from(p.join('')))),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(bytes, { minLength: 4, maxLength: 4 }), async ([cpBytes, notesBytes, planBytes, wtBytes]) => {
        const { baton, dir, clock } = fresh();
        await baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'the good one', files: ['src/good.ts'], failed: ['mocking the payment gateway'] } });
        const scopeDir = path.join(dir, 'sessions', 'kestrel');
        fs.writeFileSync(path.join(scopeDir, '20260101-000000-junk.md'), cpBytes);
        fs.writeFileSync(path.join(scopeDir, 'uncommitted.md'), notesBytes);
        fs.mkdirSync(path.join(scopeDir, 'plans'), { recursive: true });
        fs.writeFileSync(path.join(scopeDir, 'plans', 'plan-20260101-000000-junk.md'), planBytes);
        fs.mkdirSync(path.join(scopeDir, 'wt'), { recursive: true });
        fs.writeFileSync(path.join(scopeDir, 'wt', '20260101-000000-junk.md'), wtBytes);
        clock.t += 10;
        const history = await baton.history('kestrel');
        assert.ok(
          history.some((c) => c.task === 'the good one'),
          'the good checkpoint is still in history',
        );
        await baton.sessions('kestrel');
        await baton.sessions('kestrel/wt');
        await baton.plans('kestrel');
        await baton.continuity();
        assert.ok((await baton.why('src/good.ts')).some((t) => t.task === 'the good one'));
        await baton.beforeYouTry('mock the payment gateway');
        await baton.abandoned();
        await baton.reindex();
        // A new note and a commit over the junk notes file still work and lose nothing of their own.
        await baton.note('kestrel', 'claude', 'after the junk');
        const r = await baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'after' } });
        assert.ok(foldedLines(fs.readFileSync(r.path, 'utf8')).includes('after the junk'));
      }),
      { numRuns: Math.max(20, Math.floor(RUNS / 3)) },
    );
  });
});
