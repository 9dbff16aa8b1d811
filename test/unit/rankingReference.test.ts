// Search's ranking against a brute-force reference: a few hundred generated
// checkpoints in a real vault, indexed by the real SqlIndex, and the same
// documents scored here the slow way, from their files as the parser reads
// them, by the rule the index's README states: the number of query terms a
// document holds first, then BM25 (k1 1.2, b 0.75) over its fields as one
// text, Task counting double, the newer first on a tie. The engine's order
// must be the reference's, and stay so after checkpoints are removed, edited
// and added (a new segment each refresh, dead docids), after segments are
// merged (the tail, and everything with the dead dropped: their small limits
// given through SqlIndex.open's options), after a reload from the saved copy,
// and when a cold build's terms were cut by worker threads.
//
// BM25's corpus figures are the index's stated ones: the documents and the
// term's document frequency count a removed document until the next full
// merge (src/adapters/search/textIndex.ts, `corpus`), so the reference counts
// them too, and forgets them once the index reports no dead left.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SqlIndex, type IndexOptions } from '../../src/adapters/index/sqlIndex';
import { parseCheckpoint, renderCheckpoint } from '../../src/adapters/markdown/checkpointFile';
import { eachWord, termOf } from '../../src/adapters/search/terms';
import { FsVault } from '../../src/adapters/vault/fsVault';
import { checkpointSearchFields, FIELD_WEIGHTS } from '../../src/core/searchText';
import { stamp } from '../../src/core/time';
import { rng } from '../../bench/generate';
import { makeCheckpoint } from './builders';
import { tempDir } from './support/tempVault';

const K1 = 1.2;
const B = 0.75;

/** A vocabulary with a few very common words and a long tail, so lists range from most documents to one. */
const VOCAB = Array.from({ length: 160 }, (_, i) => `w${i.toString(36)}${'abcdefghij'[i % 10]}x`);

interface Doc {
  slug: string;
  ts: number;
  /** Weighted count per term, and the weighted length. */
  tfs: Map<string, number>;
  length: number;
  live: boolean;
}

/** The reference: every document the index's figures still count, scored by brute force. */
class Reference {
  docs: Doc[] = [];

  put(file: string, project: string): void {
    const name = path.basename(file, '.md');
    const cp = parseCheckpoint(fs.readFileSync(file, 'utf8'), name, project);
    const tfs = new Map<string, number>();
    let length = 0;
    checkpointSearchFields(cp).forEach((text, f) => {
      eachWord(text, (_s, _e, term) => {
        tfs.set(term, (tfs.get(term) ?? 0) + FIELD_WEIGHTS[f]);
        length += FIELD_WEIGHTS[f];
      });
    });
    // A document without a word is not one of the index's.
    if (tfs.size > 0) this.docs.push({ slug: `sessions/${project}/${name}`, ts: cp.ts, tfs, length, live: true });
  }

  remove(slug: string): void {
    for (const d of this.docs) if (d.slug === slug) d.live = false;
  }

  /** The index dropped its dead (a full merge): so do the figures. */
  merged(): void {
    this.docs = this.docs.filter((d) => d.live);
  }

  /** Every live document holding a query term, best first: [slug, terms held, BM25, ts]. */
  rank(words: string[]): { slug: string; key: number; score: number; ts: number }[] {
    const terms = [...new Set(words.map(termOf))];
    const n = this.docs.length;
    const avg = this.docs.reduce((a, d) => a + d.length, 0) / n;
    const idf = new Map(
      terms.map((t) => {
        const df = this.docs.filter((d) => d.tfs.has(t)).length;
        return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
      }),
    );
    const out: { slug: string; key: number; score: number; ts: number }[] = [];
    for (const d of this.docs) {
      if (!d.live) continue;
      let held = 0;
      let score = 0;
      for (const t of terms) {
        const tf = d.tfs.get(t);
        if (tf === undefined) continue;
        held += 1;
        score += (idf.get(t)! * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * d.length) / avg));
      }
      if (held > 0) out.push({ slug: d.slug, key: held, score, ts: d.ts });
    }
    return out.sort((a, b) => b.key - a.key || b.score - a.score || b.ts - a.ts);
  }
}

/**
 * The engine's hits must be the reference's best, in its order. Documents
 * the reference ties (same terms held, BM25 within float noise, same time)
 * may come in any order among themselves; so may the tie the limit cuts.
 */
function sameOrder(got: { slug: string; score: number }[], want: ReturnType<Reference['rank']>, limit: number, what: string): void {
  assert.equal(got.length, Math.min(limit, want.length), `${what}: hits`);
  const tied = (a: (typeof want)[number], b: (typeof want)[number]): boolean => a.key === b.key && Math.abs(a.score - b.score) < 1e-9 && a.ts === b.ts;
  let i = 0;
  while (i < got.length) {
    let j = i + 1;
    while (j < want.length && tied(want[i], want[j])) j++;
    const group = new Set(want.slice(i, j).map((w) => w.slug));
    for (let k = i; k < Math.min(j, got.length); k++) {
      assert.ok(
        group.has(got[k].slug),
        `${what}: hit ${k} is ${got[k].slug}, the reference has ${[...group].join(', ')} there\n got ${JSON.stringify(got.slice(0, 8))}\n want ${JSON.stringify(want.slice(0, 8))}`,
      );
      assert.ok(Math.abs(got[k].score - Math.round(want[i].score * 1000) / 1000) < 0.0015, `${what}: ${got[k].slug} scored ${got[k].score}, the reference ${want[i].score}`);
    }
    i = j;
  }
}

describe('search ranking against a brute-force BM25', function () {
  this.timeout(120_000);
  const r = rng(24);
  const word = (): string => VOCAB[Math.floor(VOCAB.length * r() ** 2.5)];
  const phrase = (n: number): string => Array.from({ length: 1 + Math.floor(r() * n) }, word).join(' ');
  const PROJECTS = ['kestrel', 'heron', 'ibis'];
  let root: string;
  let made = 0;

  /** A new checkpoint file (renamed into place, so its folder's mtime moves); its path. */
  function writeCheckpoint(project: string, name?: string): string {
    made += 1;
    const ts = Date.UTC(2026, 0, 1) / 1000 + made * 61;
    const session = name ?? `${stamp(ts)}-claude`;
    const cp = makeCheckpoint({
      project,
      session,
      ts,
      task: phrase(4),
      intent: r() < 0.5 ? phrase(6) : '',
      state: phrase(40),
      decisions: Array.from({ length: Math.floor(r() * 3) }, () => phrase(8)),
      failed: Array.from({ length: Math.floor(r() * 3) }, () => phrase(8)),
      next: phrase(6),
    });
    const dir = path.join(root, 'sessions', project);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${session}.md`);
    fs.writeFileSync(`${file}.tmp`, renderCheckpoint(cp));
    fs.renameSync(`${file}.tmp`, file);
    return file;
  }

  const queries = (): string[][] => {
    const q = rng(7);
    return Array.from({ length: 30 }, () => Array.from({ length: 1 + Math.floor(q() * 3) }, () => VOCAB[Math.floor(VOCAB.length * q() ** 1.5)]));
  };

  function check(index: SqlIndex, ref: Reference, round: string): void {
    for (const words of queries()) {
      for (const limit of [5, 60]) {
        const got = index.search({ words, limit }).map((h) => ({ slug: h.slug, score: h.score }));
        sameOrder(got, ref.rank(words), limit, `${round}, "${words.join(' ')}" limit ${limit}`);
      }
    }
  }

  const options = (workers: 'never' | 'always'): IndexOptions => ({
    workers: { mode: workers },
    // Small limits, so a few rounds of refreshes merge the tail (past 2 segments) and everything (dead past a tenth).
    search: { merge: { maxSegments: 2, tailShare: 10, tailMin: 1e9, deadShare: 0.1, deadMin: 5 } },
  });

  beforeEach(() => {
    root = tempDir('baton-ranking-');
    made = 0;
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("keeps a common word's strong hits above a rare word's weak ones (the bound past which a search stops taking new hits)", async () => {
    // A search reads the rarest term first, and once `limit` hits hold a key that no document still
    // untouched could reach with the terms left, stops taking new ones (query.ts). Here the rare word's
    // few hits are weak (once, in long texts) and the common word's best are strong (its Task, short
    // texts): with too low a bound for what a term can add, the rare hits would shut the strong ones out.
    const ref = new Reference();
    const filler = (n: number): string => Array.from({ length: n }, (_, i) => VOCAB[20 + ((i * 7) % 120)]).join(' ');
    const put = (task: string, state: string): void => {
      made += 1;
      const ts = Date.UTC(2026, 0, 1) / 1000 + made * 61;
      const session = `${stamp(ts)}-claude`;
      const cp = makeCheckpoint({ project: 'kestrel', session, ts, task, state });
      const dir = path.join(root, 'sessions', 'kestrel');
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${session}.md`);
      fs.writeFileSync(file, renderCheckpoint(cp));
      ref.put(file, 'kestrel');
    };
    for (let i = 0; i < 8; i++) put(filler(3), `rarexx ${filler(300)}`);
    for (let i = 0; i < 40; i++) put('commonxx commonxx', filler(4 + (i % 5)));
    for (let i = 0; i < 120; i++) put(filler(3), `commonxx ${filler(60 + i)}`);
    for (let i = 0; i < 60; i++) put(filler(3), `midxx ${i % 2 === 0 ? 'commonxx' : ''} ${filler(30)}`);
    const index = await SqlIndex.open(new FsVault(root), options('never'));
    try {
      await index.refresh();
      for (const words of [
        ['rarexx', 'commonxx'],
        ['commonxx', 'rarexx'],
        ['rarexx', 'midxx', 'commonxx'],
        ['rarexx', 'midxx'],
      ]) {
        for (const limit of [3, 5, 8, 20]) {
          const got = index.search({ words, limit }).map((h) => ({ slug: h.slug, score: h.score }));
          sameOrder(got, ref.rank(words), limit, `"${words.join(' ')}" limit ${limit}`);
        }
      }
    } finally {
      index.close();
    }
  });

  for (const workers of ['never', 'always'] as const) {
    it(`orders hits as the reference does, through removals, edits, additions and merges (cold build: workers ${workers})`, async () => {
      const ref = new Reference();
      const files: { file: string; project: string }[] = [];
      for (let i = 0; i < 300; i++) {
        const project = PROJECTS[i % PROJECTS.length];
        files.push({ file: writeCheckpoint(project), project });
      }
      for (const f of files) ref.put(f.file, f.project);
      const vault = new FsVault(root);
      let index = await SqlIndex.open(vault, options(workers));
      try {
        const stats = await index.refresh();
        assert.equal(stats.checkpointsParsed, 300);
        if (workers === 'always') assert.equal(stats.checkpointsReadInWorkers, 300);
        check(index, ref, 'cold build');
        let tailMerged = false;
        let fullyMerged = false;
        let segmentsBefore = index.textFigures().segments;
        for (let round = 1; round <= 6; round++) {
          // Remove a few, edit a few (a new text under the same name), add a few.
          for (let k = 0; k < 4; k++) {
            const [gone] = files.splice(Math.floor(r() * files.length), 1);
            fs.rmSync(gone.file);
            ref.remove(`sessions/${gone.project}/${path.basename(gone.file, '.md')}`);
          }
          for (let k = 0; k < 3; k++) {
            const f = files[Math.floor(r() * files.length)];
            ref.remove(`sessions/${f.project}/${path.basename(f.file, '.md')}`);
            writeCheckpoint(f.project, path.basename(f.file, '.md'));
            ref.put(f.file, f.project);
          }
          for (let k = 0; k < 5; k++) {
            const project = PROJECTS[Math.floor(r() * PROJECTS.length)];
            const file = writeCheckpoint(project);
            files.push({ file, project });
            ref.put(file, project);
          }
          if (round === 4) {
            // The next rounds from the saved copy, as another process would.
            await index.save(true);
            index.close();
            index = await SqlIndex.open(vault, options(workers));
          }
          await index.refresh();
          const figures = index.textFigures();
          if (figures.dead === 0) {
            fullyMerged = true;
            ref.merged();
          }
          if (figures.segments < segmentsBefore + 1 && figures.dead > 0) tailMerged = true;
          segmentsBefore = figures.segments;
          assert.equal(figures.documents, ref.docs.filter((d) => d.live).length, `round ${round}: live documents`);
          check(index, ref, `round ${round}`);
        }
        assert.ok(tailMerged, 'the tail was merged on the way');
        assert.ok(fullyMerged, 'everything was merged, the dead dropped, on the way');
      } finally {
        index.close();
      }
    });
  }
});
