// Scenario 1: many processes write one vault at once. 8 note writers (250
// notes each by default) spread over one shared scope and two more (a worktree
// scope and another project), 4 processes committing checkpoints into the same
// scopes (some fold only their own agent's notes, some fold everyone's), and a
// reader running views the whole time. Afterwards every acknowledged note is
// recorded exactly once, every file is whole, and the index agrees with the
// files on disk, both as saved and rebuilt from nothing.
import { strict as assert } from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, isCheckpointName, log, occurrences, parseJson, readRaw, removeTree, run, sleep, tempRoot, walk, type RunResult } from './support';

const NOTES = Number(process.env.CHAOS_NOTES ?? 250);
const WRITERS = 8;
const COMMITTERS = 4;
const SCOPES = ['kestrel', 'kestrel/wt-one', 'osprey'];
const scopeOf = (i: number): string => SCOPES[[0, 0, 1, 2][i % 4]];

interface Continuity {
  project: string;
  checkpoints: number;
  uncommitted: number;
}

describe('chaos 1: concurrent writers, committers and a reader', function () {
  this.timeout(15 * 60_000);
  let root: string;
  let vault: string;

  before(() => ensureBuilt());
  beforeEach(() => {
    root = tempRoot('baton-chaos1-');
    vault = path.join(root, 'vault');
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed' && process.env.CHAOS_KEEP) log(`kept ${root}`);
    else removeTree(root);
  });

  it(`records each of ${WRITERS}×${NOTES} acknowledged notes exactly once while ${COMMITTERS} processes fold them`, async () => {
    const started = Date.now();
    const tag = randomBytes(3).toString('hex');
    const acked = new Map<string, { agent: string; scope: string }>();
    const failedNotes: { text: string; r: RunResult }[] = [];
    const failedCommits: RunResult[] = [];
    const readerProblems: string[] = [];
    let writersDone = false;
    let commits = 0;
    let foldingAll = 0;
    let reads = 0;

    const writer = async (w: number): Promise<void> => {
      for (let i = 0; i < NOTES; i++) {
        const text = `w${w}-n${String(i).padStart(4, '0')}-${tag}`;
        const scope = scopeOf(i + w);
        const r = await run(['note', '-p', scope, '-a', `agent${w}`, text], { vault });
        if (r.acked) acked.set(text, { agent: `agent${w}`, scope });
        else failedNotes.push({ text, r });
        written++;
      }
    };

    // Each committer commits COMMITS times, spread over the writers' progress
    // (not over time: a slow machine must not multiply the checkpoints).
    const COMMITS = 12;
    let written = 0;
    const committer = async (c: number): Promise<void> => {
      for (let k = 0; k < COMMITS && !writersDone;) {
        if (written < ((k + (c + 1) / COMMITTERS) * WRITERS * NOTES) / (COMMITS + 1)) {
          await sleep(100);
          continue;
        }
        const scope = SCOPES[(c + k) % SCOPES.length];
        const args = ['checkpoint', '-p', scope, '-a', `agent${c}`, '--task', `commit ${c}-${k}`, '--file', `src/c${c}.ts`];
        // Every third commit is stamped an hour ahead: every other agent's
        // session then looks silent past the 30-minute grace and is folded too,
        // while those agents are still appending to the same file.
        const everyone = k % 3 === 2;
        if (everyone) args.push('--at', String(Math.floor(Date.now() / 1000) + 3600 + c * 90 + k));
        const r = await run(args, { vault });
        if (r.acked) {
          commits++;
          if (everyone) foldingAll++;
        } else failedCommits.push(r);
        k++;
      }
    };

    const reader = async (): Promise<void> => {
      const views = [
        ['continuity', '--json'],
        ['sessions', 'kestrel', '--json'],
        ['resume', 'osprey', '--json'],
        ['why', 'src/c1.ts', '--json'],
        ['sessions', 'kestrel/wt-one', '--json'],
      ];
      for (let k = 0; !writersDone; k++) {
        const view = views[k % views.length];
        const r = await run(view, { vault });
        reads++;
        if (!r.acked) readerProblems.push(`${view.join(' ')} exited ${r.code}: ${r.stderr.slice(0, 400)}`);
        else {
          try {
            JSON.parse(r.stdout);
          } catch {
            readerProblems.push(`${view.join(' ')} printed no JSON: ${r.stdout.slice(0, 200)}`);
          }
        }
        // Whatever a reader sees on disk mid-run is whole: checkpoints are
        // created complete, note lines are appended in one write.
        const raw = readRaw(vault);
        for (const t of raw.torn) readerProblems.push(`saw a torn checkpoint mid-run: ${t}`);
        for (const b of raw.badNoteLines) readerProblems.push(`saw a bad notes line mid-run in ${b.scope}: ${JSON.stringify(b.line)}`);
        await sleep(1000);
      }
    };

    const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w))).finally(() => {
      writersDone = true;
    });
    await Promise.all([writers, ...Array.from({ length: COMMITTERS }, (_, c) => committer(c)), reader()]);
    const writeSecs = (Date.now() - started) / 1000;
    log(
      `${acked.size} notes acknowledged, ${failedNotes.length} refused; ${commits} checkpoints (${foldingAll} folding every agent), ${failedCommits.length} refused; ${reads} reads; ${writeSecs.toFixed(1)}s`,
    );

    assert.deepEqual(readerProblems, [], 'the reader always got an answer and never saw a partial file');
    assert.deepEqual(
      failedNotes.map((f) => `${f.text}: exit ${f.r.code} ${f.r.stderr.trim()}`),
      [],
      'no note was refused',
    );
    assert.deepEqual(
      failedCommits.map((r) => `exit ${r.code} ${r.stderr.trim()}`),
      [],
      'no checkpoint was refused',
    );
    assert.ok(commits >= COMMITTERS, 'checkpoints were committed during the run');

    // ---- every acknowledged note exactly once, where and by whom it was written
    const raw = readRaw(vault);
    assert.deepEqual(raw.torn, [], 'every checkpoint file is whole');
    assert.deepEqual(raw.badNoteLines, [], 'every line of every uncommitted.md is a header or a note');
    const seen = occurrences(raw);
    const problems: string[] = [];
    for (const [text, want] of acked) {
      const got = seen.get(text) ?? [];
      if (got.length !== 1) problems.push(`${text} recorded ${got.length} times: ${got.map((g) => g.where).join(', ')}`);
      else if (got[0].scope !== want.scope || got[0].agent !== want.agent)
        problems.push(`${text} recorded as ${got[0].agent} in ${got[0].scope}, written by ${want.agent} in ${want.scope}`);
    }
    for (const [text, where] of seen) {
      if (!acked.has(text) && !failedNotes.some((f) => f.text === text)) problems.push(`unknown note ${text} in ${where[0].where}`);
      if (!acked.has(text) && where.length > 1) problems.push(`unacknowledged ${text} recorded ${where.length} times`);
    }
    assert.deepEqual(problems.slice(0, 20), [], `${problems.length} note(s) lost, doubled or misattributed`);
    const folded = raw.folds.length;
    const byOthers = raw.folds.filter((f) => f.agent !== f.cpAgent).length;
    log(`${raw.notes.length} notes still open, ${folded} folded into ${raw.checkpointFiles.length} checkpoints (${byOthers} folded on another agent's behalf)`);
    assert.ok(folded > 0 && byOthers > 0, 'both kinds of fold happened, so both were tested');

    // ---- no litter, no stuck lock
    const left = walk(vault).filter((e) => /\.tmp$/.test(e.rel) || e.rel.startsWith(path.join('.baton-live', 'locks') + path.sep));
    assert.deepEqual(
      left.map((e) => e.rel),
      [],
      'no temporary file or held lock is left once every process exited normally',
    );

    // ---- the index agrees with the files, as saved and rebuilt from nothing
    const onDisk = raw.checkpointFiles.length;
    const expectProjects = new Map<string, { checkpoints: number; uncommitted: number }>();
    for (const s of SCOPES) {
      const p = s.split('/')[0];
      const e = expectProjects.get(p) ?? { checkpoints: 0, uncommitted: 0 };
      e.checkpoints += raw.checkpointFiles.filter((c) => c.scope === s).length;
      e.uncommitted += raw.notes.filter((n) => n.scope === s).length;
      expectProjects.set(p, e);
    }
    for (const phase of ['saved index', 'index rebuilt from nothing']) {
      if (phase !== 'saved index') fs.rmSync(path.join(vault, '.baton', 'index.sqlite'), { force: true });
      const idx = await run(['index', '--json'], { vault });
      assert.equal(idx.code, 0, idx.stderr);
      assert.equal(parseJson<{ checkpoints: number }>(idx, 'index').checkpoints, onDisk, `${phase}: index counts the checkpoint files on disk`);
      const cont = await run(['continuity', '--json'], { vault });
      assert.equal(cont.code, 0, cont.stderr);
      const list = parseJson<Continuity[]>(cont, 'continuity');
      const got = new Map(list.map((p) => [p.project, { checkpoints: p.checkpoints, uncommitted: p.uncommitted }]));
      assert.deepEqual(Object.fromEntries(got), Object.fromEntries(expectProjects), `${phase}: continuity counts match the files`);
      for (const scope of SCOPES) {
        const s = await run(['sessions', scope, '--json'], { vault });
        const view = parseJson<{ checkpoints: unknown[]; uncommitted: { text: string }[] }>(s, 'sessions');
        assert.equal(view.checkpoints.length, raw.checkpointFiles.filter((c) => c.scope === scope).length, `${phase}: sessions ${scope} lists every checkpoint`);
        assert.deepEqual(
          view.uncommitted.map((n) => n.text).sort(),
          raw.notes
            .filter((n) => n.scope === scope)
            .map((n) => n.text)
            .sort(),
          `${phase}: sessions ${scope} shows exactly the open notes`,
        );
      }
    }
    assert.ok(fs.readdirSync(path.join(vault, 'sessions', 'kestrel')).some(isCheckpointName));
    log(`total ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });
});
