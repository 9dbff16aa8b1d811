import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { openBaton } from '../../src/app/openBaton';
import { loadSqlJs } from '../../src/adapters/index/sqlJs';
import { SCHEMA } from '../../src/adapters/index/schema';
import { Statements } from '../../src/adapters/index/statements';
import { decodePostings, eachPosting, MAX_TF, PostingWriter } from '../../src/adapters/search/postings';
import { MERGE_LIMITS, TextIndex, type MergeLimits } from '../../src/adapters/search/textIndex';
import type { SqlIndex } from '../../src/adapters/index/sqlIndex';
import { snippetOf } from '../../src/adapters/search/snippet';
import fc from 'fast-check';
import { eachWord, searchTextTerms, termId, termNames, termOf, textTerms } from '../../src/adapters/search/terms';
import { DEAD_END_FIELD, FIELD_WEIGHTS, SEARCH_FIELDS, WORD_PATTERN } from '../../src/core/searchText';
import { tempVault, type TempVault } from './support/tempVault';

describe('the text index: segments, dead documents and merges (real sql.js)', () => {
  async function index(limits: Partial<MergeLimits>): Promise<{ sql: Statements; text: TextIndex; write(fn: () => void): void; docs(word: string): number[]; segs(): number[] }> {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run(SCHEMA);
    const sql = new Statements(db);
    const text = new TextIndex(sql, { merge: { ...MERGE_LIMITS, ...limits } });
    text.load();
    return {
      sql,
      text,
      write(fn) {
        sql.run('BEGIN');
        fn();
        text.flush();
        sql.run('COMMIT');
      },
      docs(word) {
        const out: number[] = [];
        for (const list of text.listsOf(termOf(word)).lists) eachPosting(list, (d) => (text.dead.has(d) ? undefined : out.push(d)));
        return out.sort((a, b) => a - b);
      },
      segs: () => sql.rows<[number]>('SELECT DISTINCT seg FROM terms ORDER BY seg').map(([s]) => s),
    };
  }

  it('writes each refresh as a segment of its own, and merges the tail once there are too many', async () => {
    const t = await index({ maxSegments: 3, tailMin: 1e9, deadMin: 1e9 });
    t.write(() => t.text.put('note', 1, 'alpha base'));
    assert.deepEqual(t.segs(), [0], 'the first refresh writes the base');
    for (let i = 2; i <= 4; i++) t.write(() => t.text.put('note', i, `alpha number ${i}`));
    assert.deepEqual(t.segs(), [0, 1, 2, 3], 'one segment per refresh, nothing rewritten');
    t.write(() => t.text.put('note', 5, 'alpha five'));
    assert.deepEqual(t.segs(), [0, 1], 'four segments past the base are merged into one');
    assert.deepEqual(t.docs('alpha'), [5, 9, 13, 17, 21]);
    assert.deepEqual(t.docs('number'), [9, 13, 17]);
  });

  it('marks a removed document dead, skips it, and drops it from the lists at a full merge', async () => {
    const t = await index({ deadMin: 2, deadShare: 0, tailMin: 1e9 });
    t.write(() => {
      for (let i = 1; i <= 4; i++) t.text.put('note', i, `beta ${i}`);
    });
    t.write(() => t.text.remove('note', 1));
    assert.deepEqual(t.docs('beta'), [9, 13, 17]);
    assert.equal(t.sql.rows('SELECT docid FROM text_dead').length, 1, 'kept as dead, the lists not rewritten');
    t.write(() => {
      t.text.remove('note', 2);
      t.text.remove('note', 3);
    });
    assert.equal(t.sql.rows('SELECT docid FROM text_dead').length, 0, 'three dead is past the limit: merged');
    const stored: number[] = [];
    for (const list of t.text.listsOf('beta').lists) eachPosting(list, (d) => stored.push(d));
    assert.deepEqual(stored, [17], 'the dead are gone from the stored list');
    assert.deepEqual(t.text.figures(), { documents: 1, dead: 0, segments: 1 });
  });

  it('merges everything into the base once the tail outgrows its share', async () => {
    const t = await index({ maxSegments: 100, tailMin: 0, tailShare: 1, deadMin: 1e9 });
    t.write(() => t.text.put('note', 1, 'gamma delta epsilon'));
    t.write(() => t.text.put('note', 2, 'gamma'));
    assert.deepEqual(t.segs(), [0, 1]);
    t.write(() => t.text.put('note', 3, 'gamma zeta eta theta'));
    assert.deepEqual(t.segs(), [0], 'five tail postings outgrow three in the base');
    assert.deepEqual(t.docs('gamma'), [5, 9, 13]);
  });

  it('drops what a rolled-back refresh had added', async () => {
    const t = await index({});
    t.write(() => t.text.put('note', 1, 'kept'));
    t.sql.run('BEGIN');
    t.text.put('note', 2, 'lost words');
    t.sql.run('ROLLBACK');
    t.text.load();
    t.write(() => undefined);
    assert.deepEqual(t.docs('lost'), []);
    assert.deepEqual(t.docs('kept'), [5]);
  });

  it('reads a list again once it may have changed: after a flush, and after a rollback (the lists read lately are kept)', async () => {
    const t = await index({ tailMin: 1e9, deadMin: 1e9 });
    t.write(() => t.text.put('note', 1, 'kept words'));
    assert.deepEqual(t.docs('kept'), [5], 'read, and kept');
    t.write(() => t.text.put('note', 2, 'kept again'));
    assert.deepEqual(t.docs('kept'), [5, 9], 'a flush wrote a segment: read again');
    t.sql.run('BEGIN');
    t.text.put('note', 3, 'kept once more');
    t.text.flush();
    assert.deepEqual(t.docs('kept'), [5, 9, 13], 'read inside the refresh, and kept');
    t.sql.run('ROLLBACK');
    t.text.load();
    assert.deepEqual(t.docs('kept'), [5, 9], 'the rolled-back segment is gone from what is read');
  });
});

describe('the text index kept by refreshes (real vault, real sql.js)', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  const figures = (): Promise<{ documents: number; dead: number; segments: number }> => v.baton.withIndex((index) => (index as SqlIndex).textFigures());

  it('indexes each note once, however many are appended after it', async () => {
    for (let i = 0; i < 30; i++) {
      await v.baton.note('kestrel', 'claude', `note number ${i} about the heron`);
      assert.equal((await v.baton.search({ query: 'heron', limit: 100 })).length, i + 1);
    }
    assert.equal((await figures()).documents, 30);
    assert.equal((await figures()).dead, 0, 'no note was written twice');
  });

  it('finds a checkpoint edited again and again once, by its newest words', async () => {
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'word0 heron' } });
    for (let i = 1; i <= 12; i++) {
      const old = new Date(Date.now() - 60_000);
      fs.utimesSync(path.dirname(r.path), old, old);
      fs.writeFileSync(`${r.path}.tmp`, fs.readFileSync(r.path, 'utf8').replaceAll(`word${i - 1}`, `word${i}`));
      fs.renameSync(`${r.path}.tmp`, r.path);
      assert.deepEqual((await v.baton.search({ query: `word${i - 1}` })).length, 0);
      assert.deepEqual(
        (await v.baton.search({ query: 'heron' })).map((h) => h.title),
        [`word${i} heron`],
      );
    }
    assert.equal((await figures()).documents, 1);
  });

  it('numbers terms afresh once a process has met more than 2^19, and still finds what was indexed before and after', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'before godwit' }, at: v.clock.t - 20 });
    assert.equal((await v.baton.search({ query: 'godwit' })).length, 1);
    // A vault of one-off tokens, as many as the numbering keeps.
    for (let i = 0; termNames.length <= 1 << 19; i++) termId(`oneoff${i}`);
    await v.baton.commit({ scope: 'kestrel', agent: 'codex', fields: { task: 'after godwit' }, at: v.clock.t - 10 });
    assert.equal((await v.baton.search({ query: 'godwit' })).length, 2);
    assert.ok(termNames.length < 1 << 19, `the numbering started over (${termNames.length} terms)`);
    // "godwit" was cut before the numbering started over: the word table must not give its old number.
    await v.baton.commit({ scope: 'kestrel', agent: 'gemini', fields: { task: 'godwit again' } });
    assert.deepEqual((await v.baton.search({ query: 'godwit', limit: 10 })).map((h) => h.title).sort(), ['after godwit', 'before godwit', 'godwit again']);
  });

  it('never gives a new record the id of a removed one a saved copy still marks dead', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'first ibis' }, at: v.clock.t - 20 });
    const second = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'second ibis' }, at: v.clock.t - 10 });
    assert.equal((await v.baton.search({ query: 'ibis' })).length, 2);
    fs.rmSync(second.path);
    // An old saved copy is saved again after this refresh (sqlIndex.ts, `save`).
    const saved = path.join(v.root, '.baton', 'index.sqlite');
    fs.utimesSync(saved, new Date(Date.now() - 600_000), new Date(Date.now() - 600_000));
    assert.equal((await v.baton.search({ query: 'ibis' })).length, 1);
    assert.ok(fs.statSync(saved).mtimeMs > Date.now() - 60_000, 'saved again');
    // A new process loads the saved copy: the removed checkpoint's id is free in its table, not in the text index.
    const next = openBaton(v.root, { clock: v.clock });
    await next.commit({ scope: 'kestrel', agent: 'codex', fields: { task: 'third ibis' } });
    assert.deepEqual((await next.search({ query: 'ibis' })).map((h) => h.title).sort(), ['first ibis', 'third ibis']);
  });

  it('cuts snippets from the file as written: case, accents and all', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'Кэш', failed: ['Der Größte Cache-Fehler: MOCKING the Gateway'] } });
    const [hit] = await v.baton.search({ query: 'mock größte' });
    assert.equal(hit.field, 'failed');
    assert.equal(hit.snippet, 'Der Größte Cache-Fehler: MOCKING the Gateway');
    assert.deepEqual(
      hit.marks.map(([a, b]) => hit.snippet.slice(a, b)),
      ['Größte', 'MOCKING'],
    );
    const [ru] = await v.baton.search({ query: 'кэш' });
    assert.equal(ru.snippet, 'Кэш');
  });
});

describe('posting lists', () => {
  it('decode to what was written, in any order, docids past 2^31 too, counts kept up to MAX_TF', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 45 }), fc.integer({ min: 1, max: MAX_TF }))), (postings) => {
        const w = new PostingWriter();
        for (const [d, tf] of postings) w.add(d, tf);
        const back: [number, number][] = [];
        eachPosting(w.bytes(), (d, tf) => back.push([d, tf]));
        assert.deepEqual(back, postings);
        assert.equal(w.count, postings.length);
      }),
    );
    const w = new PostingWriter();
    w.add(7, 10_000);
    eachPosting(w.bytes(), (_d, tf) => assert.equal(tf, MAX_TF));
  });

  it("decode into a search's arrays as posting by posting (docids a search can index: under 2^31)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: MAX_TF }))), (postings) => {
        const w = new PostingWriter();
        for (const [d, tf] of postings) w.add(d, tf);
        const docids = new Int32Array(w.bytes().length);
        const tfs = new Uint8Array(w.bytes().length);
        const n = decodePostings(w.bytes(), docids, tfs);
        const back: [number, number][] = [];
        for (let i = 0; i < n; i++) back.push([docids[i], tfs[i]]);
        assert.deepEqual(back, postings);
      }),
    );
  });

  it('a worker’s batch list appended with its docids moved decodes as if written posting by posting', () => {
    const posting = fc.tuple(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: MAX_TF }));
    fc.assert(
      fc.property(fc.array(posting), fc.array(posting, { minLength: 1 }), fc.integer({ min: 0, max: 2 ** 40 }), (before, batch, shift) => {
        // A worker's list ascends from docid 0.
        const ascending = [...batch].sort((a, b) => a[0] - b[0]);
        const worker = new PostingWriter();
        for (const [d, tf] of ascending) worker.add(d, tf);
        const w = new PostingWriter();
        for (const [d, tf] of before) w.add(d, tf);
        w.appendShifted(worker.bytes(), worker.count, shift, worker.last);
        const expected = [...before, ...ascending.map(([d, tf]): [number, number] => [d + shift, tf])];
        const back: [number, number][] = [];
        eachPosting(w.bytes(), (d, tf) => back.push([d, tf]));
        assert.deepEqual(back, expected);
        assert.equal(w.count, expected.length);
        assert.equal(w.last, expected[expected.length - 1][0]);
      }),
    );
  });
});

describe('terms', () => {
  it('are cut at the words WORD_PATTERN finds, and no others (the scanner’s classes are learnt from it)', () => {
    const words = fc.constantFrom(
      'Mocking',
      'caché',
      'Ｔｅｓｔ',
      'кэш',
      'ΣΊΣΥΦΟΣ',
      '𝐁old',
      '𖠀',
      'e\u0301',
      '①',
      '—',
      '🚀',
      '\ud800',
      '\udc00',
      'p99',
      'x',
      '中文字',
      'a'.repeat(140),
    );
    const text = fc.array(fc.oneof(words, fc.string({ unit: 'binary', maxLength: 12 })), { maxLength: 14 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const cut: string[] = [];
        eachWord(t, (s, e, term) => cut.push(`${s}-${e}:${term}`));
        const want = [...t.matchAll(new RegExp(WORD_PATTERN, 'gu'))].map((m) => [m.index, m.index + m[0].length, termOf(m[0])] as const).filter(([, , term]) => term !== '');
        assert.deepEqual(
          cut,
          want.map(([s, e, term]) => `${s}-${e}:${term}`),
          JSON.stringify(t),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('are the same whether counted for the index (by word number) or cut for a snippet or a query (word by word)', () => {
    const words = fc.constantFrom('Mocking', 'caché', 'Ｔｅｓｔ', 'кэш', 'ΣΊΣΥΦΟΣ', '𝐁old', 'e\u0301', '①', '—', '🚀', '\ud800', 'p99', 'x');
    const text = fc.array(fc.oneof(words, fc.string({ unit: 'binary', maxLength: 12 })), { maxLength: 12 }).map((parts) => parts.join(' '));
    fc.assert(
      fc.property(text, (t) => {
        const byRegex = new Map<string, number>();
        eachWord(t, (_s, _e, term) => byRegex.set(term, (byRegex.get(term) ?? 0) + 1));
        const doc = textTerms(t);
        const byHand = new Map<string, number>();
        for (let k = 0; k < doc.count; k++) byHand.set(termNames[doc.ids[k]], doc.tfs[k]);
        assert.deepEqual([...byHand].sort(), [...byRegex].sort(), JSON.stringify(t));
        assert.equal(
          doc.length,
          [...byRegex.values()].reduce((a, b) => a + b, 0),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('are counted from stretches of a text as from each stretch on its own, weighted, the dead end’s twinned', () => {
    const part = fc.oneof(fc.constantFrom('Mocking', 'caché', 'кэш', '𝐁old', '①', '—', '\ud800', ' ', '\n', 'p99'), fc.string({ unit: 'binary', maxLength: 8 }));
    const stretched = fc
      .tuple(fc.array(part, { maxLength: 20 }), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat({ max: SEARCH_FIELDS.length - 1 })), { maxLength: 6 }))
      .map(([parts, cuts]) => {
        const text = parts.join('');
        // Stretches anywhere, even inside a word (the word then stops at the stretch's end, as its slice
        // would), but not inside a surrogate pair: a stretch is whole lines of a decoded file.
        const inPair = (i: number): boolean => i > 0 && i < text.length && /[\ud800-\udbff]/.test(text[i - 1]) && /[\udc00-\udfff]/.test(text[i]);
        const pieces = cuts.flatMap(([a, b, f]) => {
          let from = text.length ? a % text.length : 0;
          if (inPair(from)) from -= 1;
          let to = from + (text.length ? b % (text.length - from + 1) : 0);
          if (inPair(to)) to += 1;
          return [from, to, f];
        });
        return { text, pieces };
      });
    const counted = (ids: Int32Array, tfs: Float64Array, n: number): string[] => Array.from({ length: n }, (_, k) => `${termNames[ids[k]]}:${tfs[k]}`).sort();
    fc.assert(
      fc.property(stretched, (src) => {
        const want = new Map<string, number>();
        let length = 0;
        for (let p = 0; p < src.pieces.length; p += 3) {
          const f = src.pieces[p + 2];
          const d = textTerms(src.text.slice(src.pieces[p], src.pieces[p + 1]));
          length += d.length * FIELD_WEIGHTS[f];
          for (let k = 0; k < d.count; k++) {
            const t = termNames[d.ids[k]];
            want.set(t, (want.get(t) ?? 0) + d.tfs[k] * FIELD_WEIGHTS[f]);
            if (f === DEAD_END_FIELD) want.set(`~${t}`, (want.get(`~${t}`) ?? 0) + d.tfs[k]);
          }
        }
        const got = searchTextTerms(src, FIELD_WEIGHTS, DEAD_END_FIELD);
        assert.deepEqual(counted(got.ids, got.tfs, got.count), [...want].map(([t, n]) => `${t}:${n}`).sort(), JSON.stringify(src));
        assert.equal(got.length, length);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('snippets', () => {
  const terms = (...words: string[]): Set<string> => new Set(words.map(termOf));

  it('picks the field with the most query words, then cuts a window around them', () => {
    const long = `${'filler '.repeat(60)}the retry policy backs off ${'tail '.repeat(60)}`;
    const cut = snippetOf(['a task about retry', long], terms('retry', 'policy'));
    assert.equal(cut.field, 1);
    assert.ok(cut.snippet.startsWith('…') && cut.snippet.endsWith('…'), cut.snippet);
    assert.deepEqual(
      cut.marks.map(([a, b]) => cut.snippet.slice(a, b)),
      ['retry', 'policy'],
    );
    assert.ok(cut.snippet.split(' ').length <= 26, cut.snippet);
  });

  it('keeps to the field asked for, and shows the start of a field without a match', () => {
    const cut = snippetOf(['retry here', 'nothing\nat all'], terms('retry'), 1);
    assert.deepEqual(cut, { field: 1, snippet: 'nothing · at all', marks: [] });
    assert.equal(snippetOf(['- first\n- second'], terms('zebra')).snippet, 'first · second', 'no bullet left at the start');
  });

  const marked = (cut: { snippet: string; marks: [number, number][] }): string[] => cut.marks.map(([a, b]) => cut.snippet.slice(a, b));

  it("keeps a list's items apart on the one line: a State's folded notes, a list field's items", () => {
    const state = 'Recorded during the session:\n- fake timers did not help\n- msw intercepts fetch\n- (codex) the\tclock is global';
    const cut = snippetOf([state], terms('timers', 'fetch', 'clock'));
    assert.equal(cut.snippet, 'Recorded during the session: fake timers did not help · msw intercepts fetch · (codex) the clock is global');
    assert.deepEqual(marked(cut), ['timers', 'fetch', 'clock']);
    // A list field is its items joined by line breaks (core/searchText.ts checkpointSearchFields), indented or not, CRLF too.
    const failed = snippetOf(['mocking the gateway\r\n  * retrying the payment call\n\n\nstubbing fetch'], terms('gateway', 'payment', 'fetch'));
    assert.equal(failed.snippet, 'mocking the gateway · retrying the payment call · stubbing fetch');
    assert.deepEqual(marked(failed), ['gateway', 'payment', 'fetch']);
  });

  it('cut from the middle of a long list, the window starts with … and its marks still fall on the words', () => {
    const notes = Array.from({ length: 40 }, (_, i) => `- note number ${i} about nothing`);
    notes[30] = '- the webhook replay failed';
    const cut = snippetOf([`Recorded during the session:\n${notes.join('\n')}`], terms('webhook', 'replay'));
    assert.ok(cut.snippet.startsWith('…') && cut.snippet.endsWith('…'), cut.snippet);
    assert.match(cut.snippet, /about nothing · the webhook replay failed · note number 31/);
    assert.deepEqual(marked(cut), ['webhook', 'replay']);
  });

  it('whatever the text: one line, and every mark on a matched word', () => {
    const word = fc.constantFrom('retry', 'Payment', 'gateway', 'the', 'é', 'x1');
    const gap = fc.constantFrom(' ', '\n', '\n- ', '\r\n  * ', '\t', ': \n', '\n\n+ ', '\u2028');
    const text = fc.array(fc.tuple(gap, word), { maxLength: 60 }).map((parts) => parts.map(([g, w]) => g + w).join(''));
    const wanted = terms('retry', 'payment');
    fc.assert(
      fc.property(text, (t) => {
        const cut = snippetOf([t], wanted);
        assert.doesNotMatch(cut.snippet, /[\r\n\t\v\f\u0085\u2028\u2029]/, JSON.stringify(t));
        for (const w of marked(cut)) assert.ok(wanted.has(termOf(w)), `${JSON.stringify(w)} in ${JSON.stringify(cut.snippet)}`);
      }),
      { numRuns: 500 },
    );
  });

  it('a search of a checkpoint that folded notes shows them apart', async () => {
    const v = tempVault();
    try {
      await v.baton.note('kestrel', 'claude', 'fake timers did not help');
      await v.baton.note('kestrel', 'claude', 'msw intercepts fetch');
      await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'the webhook tests' } });
      const [hit] = await v.baton.search({ query: 'timers fetch', kind: 'checkpoint' });
      assert.equal(hit.field, 'state');
      assert.equal(hit.snippet, 'Recorded during the session: fake timers did not help · msw intercepts fetch');
      assert.deepEqual(marked(hit), ['timers', 'fetch']);
    } finally {
      v.cleanup();
    }
  });
});

describe('an index of another schema', () => {
  it('is rebuilt from nothing, so the old tables’ pages are not saved again (free) in every later copy', async () => {
    const v = tempVault();
    try {
      await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'heron' } });
      const SQL = await loadSqlJs();
      const old = new SQL.Database();
      old.run("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('version', '6'); CREATE TABLE fts_content(c BLOB);");
      old.run('INSERT INTO fts_content VALUES (?)', [new Uint8Array(4 << 20)]);
      const file = path.join(v.root, '.baton', 'index.sqlite');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, old.export());
      old.close();
      const next = openBaton(v.root, { clock: v.clock });
      assert.equal((await next.search({ query: 'heron' })).length, 1);
      assert.ok(fs.statSync(file).size < 1 << 20, `${fs.statSync(file).size} bytes`);
    } finally {
      v.cleanup();
    }
  });
});
