// The index reads checkpoints through its own fast reader (src/adapters/index/
// indexRecord.ts, the core's bodyFacts) and answers "which checkpoints touched this file" from its
// own tables. Both must give exactly what the real parser and the contract's
// matcher give: pinned here on the benchmark's generated corpus, on those
// files mangled by hand and at random, and on arbitrary content.
import { strict as assert } from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { indexRecord, recordOfCheckpoint } from '../../src/adapters/index/indexRecord';
import { SqlIndex } from '../../src/adapters/index/sqlIndex';
import type { WorkerOptions } from '../../src/adapters/index/parallelRead';
import { isCheckpointFileName, parseCheckpoint, renderCheckpoint } from '../../src/adapters/markdown/checkpointFile';
import { FsVault } from '../../src/adapters/vault/fsVault';
import { bodyFacts, isEmptyCheckpoint, parseFields, SECTIONS } from '../../src/core/checkpointBody';
import { checkpointSearchFields, fieldsSearchText, SEARCH_FIELDS, type SearchText } from '../../src/core/searchText';
import { eachWord } from '../../src/adapters/search/terms';
import type { IndexRecord } from '../../src/adapters/index/indexRecord';
import type { Checkpoint } from '../../src/core/model';
import { normalizeTouchPath } from '../../src/core/touching';
import { generateVault, sampleCheckpoints } from '../../bench/generate';
import { makeCheckpoint, makeGit } from './builders';
import { JUNK, mangle } from './support/mangle';
import { tempDir } from './support/tempVault';

const corpus = sampleCheckpoints(400, 42);

/**
 * A search text as what search reads of it: each field's terms in order. The
 * fast reader gives stretches of the file, the parser whole fields: the words
 * must be the same, in the same fields and order.
 */
function fieldTerms(src: SearchText | null): Record<string, string[]> | null {
  if (!src) return null;
  const out: Record<string, string[]> = {};
  for (let p = 0; p < src.pieces.length; p += 3) {
    const field = SEARCH_FIELDS[src.pieces[p + 2]];
    eachWord(src.text.slice(src.pieces[p], src.pieces[p + 1]), (_s, _e, term) => (out[field] ??= []).push(term));
  }
  return out;
}

const comparable = (r: IndexRecord): unknown => ({ ...r, search: fieldTerms(r.search) });

function same(text: string, id = '20260814-143207-claude'): void {
  assert.deepEqual(comparable(indexRecord(text, id)), comparable(recordOfCheckpoint(text, id)), JSON.stringify(text));
  // A build without the text index reads none, and the rest the same.
  assert.deepEqual({ ...indexRecord(text, id), search: null }, indexRecord(text, id, false), JSON.stringify(text));
}

describe('the index reads checkpoints exactly as the real parser does', () => {
  it('on the benchmark corpus', () => {
    for (const c of corpus) same(c.text, c.id);
  });

  it('on the corpus mangled by hand (YAML that breaks, changes type, or only looks like Baton’s)', () => {
    corpus.slice(0, 200).forEach((c, i) => {
      for (let k = 0; k < 10; k++) same(mangle(c.text, i * 100 + k), c.id);
    });
    for (const j of JUNK) same(`---\ntype: checkpoint\n${j}\nagent: x\n---\n\n## Task\n\nt\n`);
  });

  it('on edge shapes: no frontmatter, empty, torn, no closing line, closing at the end, empty frontmatter', () => {
    const base = corpus[0].text;
    for (const t of [
      '',
      '---',
      '---\n',
      '---\n---\n',
      '---\n---',
      base.replace(/\n---\n/, '\n--- \n'),
      base.slice(0, base.indexOf('\n---\n') + 4),
      base.slice(0, base.indexOf('\n---\n')),
      `${base.slice(0, base.indexOf('\n---\n'))}\n---`,
      '## Task\n\nbody only\n',
      'x\n---\ny: z\n---\n',
    ]) {
      same(t);
    }
  });

  it('on arbitrary content rendered by Baton', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 10 }),
      fc.string({ unit: 'binary', maxLength: 10 }),
      fc.constantFrom('## Files', '## Next', "## Didn't work", '- x', ': ', ' #', '"', "'", '\n', '\r\n', '\u2028', '\ufeff', '😀', '---', '1e3', 'null'),
    );
    const text = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
    const list = fc.array(text, { maxLength: 4 });
    fc.assert(
      fc.property(text, text, text, list, list, list, list, text, text, text, (task, state, next, files, failed, touched, decisions, agent, branch, machine) => {
        // `machine` and `person` any text (a number's spelling too): the index says whose from them.
        const cp = makeCheckpoint({
          task,
          state,
          next,
          files,
          failed,
          decisions,
          git: makeGit({ files: touched, branch }),
          extra: { agent_session: agent, folded: [agent], machine, person: branch },
        });
        same(renderCheckpoint(cp));
      }),
      { numRuns: 300 },
    );
  });

  it("on whose it is: machine and person in every spelling (plain, quoted, padded, a number's, absent)", () => {
    const base = renderCheckpoint(makeCheckpoint({ task: 'the index', extra: { machine: 'feedc0defeedc0de', person: 'Ann Lee' } }));
    assert.deepEqual([indexRecord(base, '20260814-143207-claude').machine, indexRecord(base, '20260814-143207-claude').person], ['feedc0defeedc0de', 'Ann Lee']);
    for (const [machine, person] of [
      ['"feedc0de"', "'Ann'"],
      ['" padded "', '"  Ann  "'],
      ['1234567890123456', 'true'],
      ['null', '~'],
      ['0x1f', '1e3'],
      ['', ''],
    ]) {
      const text = base.replace(/^machine: .*$/m, `machine: ${machine}`).replace(/^person: .*$/m, `person: ${person}`);
      same(text);
      same(text.replace(/^machine: .*\n/m, '').replace(/^person: .*\n/m, ''));
    }
  });

  it('reads a body as parseBody does', () => {
    const pinned = (body: string): void => {
      const f = parseFields(body);
      const search = fieldTerms(fieldsSearchText(checkpointSearchFields(f)));
      const facts = bodyFacts(body);
      assert.deepEqual(
        { ...facts, search: fieldTerms(facts.search) },
        { task: f.task, next: f.next, files: f.files, failed: f.failed, empty: isEmptyCheckpoint(f), search },
        JSON.stringify(body),
      );
      assert.equal(bodyFacts(body, false).search, null);
    };
    // Each section alone, so that what each one does to "empty" is pinned, not left to chance.
    for (const s of SECTIONS) {
      // A list's continuation lines: read under an item, dropped after a blank or plain line, or when the indent is not only spaces and tabs.
      const wrapped = ['- x\n  y', '- x\n\n  y', '- x\nplain\n  y', '- x\n  \u00a0y', '- x\n\t\ty\n  z', '-x\n  y', '+\n  y'];
      for (const content of ['x', '- x', '* x\n  more', '  ', '-', '\\# x', '\u00a0', '## Unknown\n\nx', ...wrapped]) {
        pinned(`## ${s.heading}\n\n${content}\n`);
        pinned(`intro\n## ${s.heading.toUpperCase()} ##\r\n${content}`);
      }
    }
    const piece = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom(
        '## Task',
        '## Next',
        '## State',
        '## Files',
        "## Didn't work",
        '## didn’t WORK ##',
        '##\tFiles',
        '## Decisions',
        '## Unknown',
        '##x',
        '- a',
        '* b',
        '+ c',
        '  cont',
        '-',
        '\\## x',
        '\n',
        '\r\n',
        '\u2028',
        ' ',
        '\t',
        '\n## State\n\nstate\n',
        '\n## Intent\n\nwhy\n',
        // Lines a list reads or drops by its rules alone: no space after the marker, an indent that is only spaces, a plain line.
        '-x',
        '*\tw',
        '  \u00a0y',
        '\tz',
        '\r',
        'plain',
        '  ',
        '- ',
        '\n  wrapped\n',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        pinned(parts.join(''));
      }),
      { numRuns: 500 },
    );
  });
});

/** Every checkpoint of a vault, parsed by the real parser. */
function everyCheckpoint(root: string): Checkpoint[] {
  const out: Checkpoint[] = [];
  const sessions = path.join(root, 'sessions');
  const dirs = (d: string): string[] =>
    fs
      .readdirSync(d, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  for (const p of dirs(sessions)) {
    for (const scope of [
      p,
      ...dirs(path.join(sessions, p))
        .filter((w) => w !== 'plans')
        .map((w) => `${p}/${w}`),
    ]) {
      const dir = path.join(sessions, ...scope.split('/'));
      for (const name of fs.readdirSync(dir).filter(isCheckpointFileName)) {
        out.push(parseCheckpoint(fs.readFileSync(path.join(dir, name), 'utf8'), name.slice(0, -3), scope));
      }
    }
  }
  return out;
}

/** "Which checkpoints touched this file" the slow way: every checkpoint, the contract's matcher, newest first. */
function oracle(all: Checkpoint[], query: string): { slug: string; matched: string }[] {
  const out: { slug: string; matched: string; ts: number; session: string }[] = [];
  const y = normalizeTouchPath(query);
  // The contract's pathsMatch(f, query) (core/touching.ts), each side normalised once up front: this runs thousands of times.
  const match = (x: string): boolean => x !== '' && y !== '' && (x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`));
  for (const cp of all) {
    if (isEmptyCheckpoint(cp)) continue;
    const hit = [...cp.files, ...cp.git.files].map(normalizeTouchPath).find(match);
    if (hit !== undefined) out.push({ slug: cp.slug, matched: hit, ts: cp.ts, session: cp.session });
  }
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort((a, b) => b.ts - a.ts || cmp(b.session, a.session) || cmp(b.slug, a.slug)).map(({ slug, matched }) => ({ slug, matched }));
}

describe('the index answers "which checkpoints touched this file" as the contract does', () => {
  let root: string;
  before(() => {
    root = tempDir('baton-touch-');
    generateVault(root, { checkpoints: 400, projects: 12, seed: 3 });
    // Paths agents write every which way, including ones whose second normalisation differs.
    const odd = makeCheckpoint({
      session: '20990101-000000-odd',
      project: 'odd',
      task: 'odd paths',
      ts: Date.UTC(2099, 0, 1) / 1000,
      files: ["./'quoted.ts", 'x`/', '`./src/index.ts` (new)', 'C:\\work\\src\\index.ts', '/abs/src/lib/a.ts', 'a//b.ts', 'ünï/cödé.ts', '😀/emoji.ts', 'README.md'],
      git: makeGit({ files: ['src/index.ts', 'docs/README.md', 'README.md'] }),
    });
    fs.mkdirSync(path.join(root, 'sessions', 'odd'), { recursive: true });
    fs.writeFileSync(path.join(root, 'sessions', 'odd', '20990101-000000-odd.md'), renderCheckpoint(odd));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('on every path the generated vault names, spelled every way, with and without a limit', async () => {
    const index = await SqlIndex.open(new FsVault(root));
    try {
      await index.refresh();
      const all = everyCheckpoint(root);
      const names = new Set<string>();
      for (const cp of all) for (const p of [...cp.files, ...cp.git.files]) names.add(normalizeTouchPath(p));
      // Every name, each in one of its spellings (in turn), and the odd ones.
      const spell = [
        (n: string): string => n,
        (n: string): string => `./${n}`,
        (n: string): string => `/home/me/repo/${n}`,
        (n: string): string => n.split('/').slice(-2).join('/'),
        (n: string): string => n.split('/').pop() ?? n,
        (n: string): string => `${n}x`,
        (n: string): string => `x${n}`,
      ];
      const queries = [...names].map((n, i) => spell[i % spell.length](n));
      queries.push('quoted.ts', "'quoted.ts", 'x', 'index.ts', 'src', 'b.ts', '/b.ts', 'cödé.ts', 'emoji.ts', '', '   ', './', 'README.md', 'docs/README.md');
      for (const q of queries) {
        const want = oracle(all, q);
        const got = index.touching(q).map((t) => ({ slug: t.slug, matched: t.matched }));
        assert.deepEqual(got, want, q);
        for (const limit of [1, 3])
          assert.deepEqual(
            index.touching(q, limit).map((t) => ({ slug: t.slug, matched: t.matched })),
            want.slice(0, limit),
            `${q} limit ${limit}`,
          );
      }
      await index.save();
    } finally {
      index.close();
    }
  });

  it('builds the same index when worker threads read and parse (a cold build of a big vault), with or without this thread helping', async () => {
    const build = async (workers: WorkerOptions): Promise<{ index: SqlIndex; byWorkers: number }> => {
      const copy = tempDir('baton-touch-copy-');
      fs.cpSync(path.join(root, 'sessions'), path.join(copy, 'sessions'), { recursive: true });
      try {
        const index = await SqlIndex.open(new FsVault(copy), { workers });
        const stats = await index.refresh();
        assert.ok(stats.checkpointsParsed > 400, JSON.stringify(stats));
        return { index, byWorkers: stats.checkpointsReadInWorkers };
      } finally {
        fs.rmSync(copy, { recursive: true, force: true });
      }
    };
    const { index: inline, byWorkers: inlineByWorkers } = await build({ mode: 'never' });
    const { index: workersOnly, byWorkers } = await build({ mode: 'always', steal: false });
    const { index: together } = await build({ mode: 'always', count: 2 });
    try {
      assert.equal(inlineByWorkers, 0);
      assert.ok(byWorkers >= inline.checkpointCount(), `the workers read every file (${byWorkers})`);
      for (const threaded of [workersOnly, together]) {
        assert.deepEqual(threaded.summaries(), inline.summaries());
        assert.deepEqual(threaded.deadEnds(), inline.deadEnds());
        assert.equal(threaded.checkpointCount(), inline.checkpointCount());
        for (const q of ['README.md', 'index.ts', 'src/index.ts', 'quoted.ts', 'cödé.ts', 'emoji.ts', 'a.ts', 'go.mod']) {
          assert.deepEqual(threaded.touching(q), inline.touching(q), q);
        }
      }
    } finally {
      inline.close();
      workersOnly.close();
      together.close();
    }
  });

  it('stays exact after checkpoints are edited, removed and added (incremental refresh from a saved copy)', async () => {
    const dir = path.join(root, 'sessions', 'odd');
    const file = path.join(dir, '20990101-000000-odd.md');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('## Files\n', '## Files\n\n- src/new-one.ts\n'));
    fs.writeFileSync(path.join(dir, '20990102-000000-odd.md'), text.replace('20990101-000000-odd', '20990102-000000-odd'));
    const first = fs.readdirSync(path.join(root, 'sessions')).find((d) => d !== 'odd') as string;
    const victim = fs.readdirSync(path.join(root, 'sessions', first)).find(isCheckpointFileName) as string;
    fs.rmSync(path.join(root, 'sessions', first, victim));
    const old = new Date(Date.now() - 60_000);
    for (const d of [dir, path.join(root, 'sessions', first)]) fs.utimesSync(d, old, old);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const index = await SqlIndex.open(new FsVault(root));
    try {
      const stats = await index.refresh();
      assert.ok(stats.checkpointsParsed >= 2 && stats.checkpointsRemoved >= 1, JSON.stringify(stats));
      const all = everyCheckpoint(root);
      for (const q of ['src/new-one.ts', 'index.ts', 'README.md', 'src/index.ts', 'a.ts']) {
        assert.deepEqual(
          index.touching(q).map((t) => ({ slug: t.slug, matched: t.matched })),
          oracle(all, q),
          q,
        );
      }
    } finally {
      index.close();
    }
  });
});
