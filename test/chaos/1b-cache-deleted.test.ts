// Scenario 1b: `.baton/` (the index, a cache) deleted over and over while
// agents write notes, commit checkpoints and read views. The README says it
// may be deleted at any time; so it must hold nothing that a deletion can
// take from a writer: no lock (a lock deleted under its holder lets a second
// writer in: notes lost, or folded twice) and no pending note. Afterwards
// every acknowledged note is recorded exactly once, nothing else is, and no
// process printed a stack trace.
import { strict as assert } from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, log, occurrences, readRaw, removeTree, run, sleep, tempRoot, type RunResult } from './support';

const NOTES = Math.max(10, Math.round(Number(process.env.CHAOS_NOTES ?? 250) / 10));
const WRITERS = 4;
const SCOPES = ['kestrel', 'osprey'];

describe('chaos 1b: the cache folder deleted while agents write', function () {
  this.timeout(10 * 60_000);
  let root: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    root = tempRoot('baton-chaos1b-');
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed' && process.env.CHAOS_KEEP) log(`kept ${root}`);
    else removeTree(root);
  });

  it(`loses and doubles nothing of ${WRITERS}×${NOTES} notes and their folds while .baton/ is deleted in a loop`, async () => {
    const started = Date.now();
    const vault = path.join(root, 'vault');
    const tag = randomBytes(3).toString('hex');
    const acked = new Set<string>();
    const problems: string[] = [];
    const check = (what: string, r: RunResult): void => {
      if (/\n\s+at |Error: [A-Z]+:/.test(r.stderr) || r.timedOut) problems.push(`${what}: ${r.stderr.slice(0, 400)}`);
    };
    let done = false;
    let deletions = 0;
    let commits = 0;
    let failedNotes = 0;

    const deleter = async (): Promise<void> => {
      while (!done) {
        try {
          fs.rmSync(path.join(vault, '.baton'), { recursive: true, force: true });
          deletions++;
        } catch {
          // written into while being deleted (ENOTEMPTY): again at once
        }
        await sleep(Math.random() * 120);
      }
    };
    // Writers share two agents, so two processes of one agent commit and fold the same session at once.
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; i < NOTES; i++) {
        const text = `w${w}-n${i}-${tag}`;
        const r = await run(['note', '-p', SCOPES[(w + i) % 2], '-a', `agent${w % 2}`, text], { vault });
        check(`note ${text}`, r);
        if (r.acked) acked.add(text);
        else failedNotes++;
      }
    };
    const committer = async (c: number): Promise<void> => {
      for (let k = 0; !done; k++) {
        const r = await run(['checkpoint', '-p', SCOPES[(c + k) % 2], '-a', `agent${c % 2}`, '--task', `commit ${c}-${k}`], { vault });
        check(`commit ${c}-${k}`, r);
        if (r.acked) commits++;
        await sleep(250);
      }
    };
    const reader = async (): Promise<void> => {
      for (let k = 0; !done; k++) {
        const views = [
          ['continuity', '--json'],
          ['sessions', SCOPES[k % 2], '--json'],
          ['resume', SCOPES[k % 2], '--json'],
        ];
        const r = await run(views[k % 3], { vault });
        check('view', r);
        if (!r.acked) problems.push(`view failed: ${r.stderr.slice(0, 300)}`);
      }
    };

    // Open notes of a third agent make each commit hold its lock a while (reading and rewriting them).
    for (const scope of SCOPES) {
      const dir = path.join(vault, 'sessions', scope);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const ts = Math.floor(Date.now() / 1000) + 7200;
      const filler = Array.from({ length: 10_000 }, (_, i) => `- filler ${i} ${'f'.repeat(100)} <!-- ts=${ts} agent=bystander -->\n`).join('');
      fs.writeFileSync(path.join(dir, 'uncommitted.md'), `# uncommitted — ${scope}\n\n${filler}`, { mode: 0o600 });
    }
    const background = [deleter(), committer(0), committer(1), reader()];
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    done = true;
    await Promise.all(background);

    // A last commit of every session, and an index run for anything pending.
    for (const scope of SCOPES) for (const a of [0, 1]) await run(['checkpoint', '-p', scope, '-a', `agent${a}`, '--task', 'final'], { vault });
    const idx = await run(['index', '--json'], { vault });
    check('index', idx);

    const raw = readRaw(vault);
    const seen = occurrences(raw);
    const lost = [...acked].filter((t) => !seen.has(t));
    const doubled = [...seen].filter(([t, w]) => t.endsWith(tag) && w.length > 1).map(([t, w]) => `${t} ×${w.length}`);
    log(`${acked.size} notes acknowledged (${failedNotes} refused), ${commits} commits, .baton/ deleted ${deletions} times; ${((Date.now() - started) / 1000).toFixed(1)}s`);
    log(`${lost.length} lost, ${doubled.length} doubled, ${problems.length} stack traces or failed views`);
    assert.deepEqual(problems.slice(0, 5), [], 'no stack traces, no hung process, every view answers');
    assert.deepEqual(lost, [], 'no acknowledged note lost');
    assert.deepEqual(doubled, [], 'no note recorded twice');
    assert.deepEqual(raw.torn, [], 'no torn checkpoint');
    assert.equal(failedNotes, 0, 'deleting the cache refuses no note');
  });
});
