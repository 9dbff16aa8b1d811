// parseCheckpoint reads the frontmatter Baton and Logos write by hand and gives
// anything else to js-yaml; here the two readings are pinned together, on the
// benchmark's corpus, on it mangled by hand, on values whose YAML type is not
// a string, on arbitrary rendered content, and on the fixture vaults (Logos's
// and Baton's, torn and junk files included), where the index's reader is
// held to the real parser too.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { indexRecord, recordOfCheckpoint } from '../../src/adapters/index/indexRecord';
import { isCheckpointFileName, parseCheckpoint, parseCheckpointFields, parseCheckpointSlow, renderCheckpoint } from '../../src/adapters/markdown/checkpointFile';
import { checkpointSearchFields } from '../../src/core/searchText';
import { fastFrontmatter } from '../../src/adapters/markdown/fastReader';
import { evidenceOf, evidenceRecord } from '../../src/core/evidence';
import type { Run } from '../../src/core/runs';
import { sampleCheckpoints } from '../../bench/generate';
import { makeCheckpoint, makeGit } from './builders';
import { JUNK, mangle } from './support/mangle';

const corpus = sampleCheckpoints(300, 7);

function same(text: string, id = '20260814-143207-claude', scope = 'kestrel'): void {
  const cp = parseCheckpoint(text, id, scope);
  assert.deepStrictEqual(cp, parseCheckpointSlow(text, id, scope), JSON.stringify(text));
  // What a search hit's snippet is cut from reads the body as the whole parse does.
  assert.deepStrictEqual(checkpointSearchFields(parseCheckpointFields(text)), checkpointSearchFields(cp), JSON.stringify(text));
}

// Values of keys Baton does not model (kept in `extra` with their YAML type).
const TYPED = [
  'x: 12',
  'x: 0',
  'x: 007',
  'x: 1.5',
  'x: 1e3',
  'x: +5',
  'x: 1_000',
  'x: 0x1F',
  'x: 0o17',
  'x: 0b101',
  'x: 0bc2ae606429d1cf',
  'x: 0b2',
  'x: 0o8',
  'x: 0xg',
  'x: 0x1g',
  'x: 123456789012345678901',
  'x: true',
  'x: True',
  'x: TRUE',
  'x: false',
  'x: yes',
  'x: on',
  'x: ~',
  'x: null',
  'x: NULL',
  'x: .inf',
  'x: .NaN',
  'x: +.inf',
  'x: 2026-09-05',
  'x: 2026-09-05T17:00:00Z',
  'x: 12:30',
  'x: 1.5 GB',
  'x: abc',
  'x: deadbeef',
  'x: é',
  'x: 20260905-170000-claude',
  'x:\n  - 1\n  - a',
  'x:\n  - true\n  - "1"',
  'x:\n  - ~',
  "x: '12'",
  'x: "true"',
  'constructor: a',
  'toString: b',
  'hasOwnProperty: c',
];

describe('parseCheckpoint reads by hand exactly what js-yaml reads', () => {
  it('on the benchmark corpus, and takes the fast path there', () => {
    for (const c of corpus) same(c.text, c.id, c.scope);
    // parseCheckpoint reads by hand whatever fastFrontmatter accepts.
    const fast = corpus.filter((c) => fastFrontmatter(c.text) !== null).length;
    assert.ok(fast >= corpus.length * 0.9, `fast path taken ${fast} of ${corpus.length} times`);
  });

  it('on the corpus mangled by hand', () => {
    corpus.slice(0, 150).forEach((c, i) => {
      for (let k = 0; k < 10; k++) same(mangle(c.text, i * 100 + k), c.id, c.scope);
    });
    for (const j of [...JUNK, ...TYPED]) same(`---\ntype: checkpoint\n${j}\nagent: x\n---\n\n## Task\n\nt\n`);
    // A machine id a hex prefix would make a number if it were all that prefix's digits: a string, read by hand (1 machine in 256).
    assert.ok(fastFrontmatter('---\ntype: checkpoint\nmachine: 0bc2ae606429d1cf\n---\n'));
  });

  it('on edge shapes: no frontmatter, empty, torn, no closing line, closing at the end', () => {
    const base = corpus[0].text;
    for (const t of [
      '',
      '---',
      '---\n',
      '---\n---\n',
      '---\n---',
      '---\nk: v\n---',
      base.replace(/\n---\n/, '\n--- \n'),
      base.slice(0, base.indexOf('\n---\n') + 4),
      base.slice(0, base.indexOf('\n---\n')),
      `${base.slice(0, base.indexOf('\n---\n'))}\n---`,
      '## Task\n\nbody only\n',
      'x\n---\ny: z\n---\n',
      `\ufeff${base}`,
      base.replace(/\n/g, '\r\n'),
      // A YAML comment that reads as a heading: only the body's headings are fields.
      '---\n## State\nproject: kestrel\n---\n## Task\n\nthe real task\n',
    ]) {
      same(t);
    }
  });

  it('on arbitrary content rendered by Baton, extra keys included', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 10 }),
      fc.constantFrom(': ', ' #', '"', "'", '\n', '\u2028', '😀', '---', '1e3', 'null', 'true', '12', '0x1', '~', '.nan', '2026-09-05'),
    );
    const text = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
    const list = fc.array(text, { maxLength: 3 });
    const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.double(), list);
    fc.assert(
      fc.property(text, text, list, list, text, text, value, value, (task, next, files, touched, agent, branch, a, b) => {
        const cp = makeCheckpoint({ task, next, files, git: makeGit({ files: touched, branch }), extra: { agent_session: agent, folded: [agent], capture: a, custom_key: b } });
        same(renderCheckpoint(cp));
      }),
      { numRuns: 400 },
    );
  });

  it('on claims’ evidence as Baton writes it (a nested key), taking the fast path on the usual shape, the index agreeing', () => {
    const evidence = {
      commit: '8151448',
      files: { 'src/auth.ts': 'sha256:0a4a738b9b6862aa', 'src/gone.ts': 'missing', 'docs/a b.md': 'sha256:1111111111111111' },
      claims: [
        { claim: 'rejects expired tokens — npm test -- auth', command: 'npm test -- auth', exit: 0, ran: '2026-12-03T06:28:40Z', commit: 'abc1234' },
        { claim: 'stale one: saved after', command: 'go test ./...', exit: 0, ran: '2026-12-03T06:28:40Z', changed: ['src/auth.ts', 'src/x.ts'] },
        { claim: 'by hand', unbacked: true },
      ],
    };
    const usual = renderCheckpoint(
      makeCheckpoint({ task: 'expiry', verified: evidence.claims.map((c) => c.claim), extra: { evidence: { ...evidence, files: { 'src/auth.ts': 'sha256:0a4a738b9b6862aa' } } } }),
    );
    same(usual);
    assert.ok(fastFrontmatter(usual), usual);
    for (const cut of [1, 2, 3]) {
      // A torn or hand-edited block goes wherever the real parser takes it.
      const lines = usual.split('\n');
      const at = lines.findIndex((l) => l.startsWith('  claims:')) + cut;
      same([...lines.slice(0, at), `${' '.repeat(cut)}x: y`, ...lines.slice(at)].join('\n'));
      same([...lines.slice(0, at), ...lines.slice(at + 1)].join('\n'));
    }
    // A key twice in one claim: js-yaml refuses the whole frontmatter, and so must the hand reader.
    same(usual.replace('      command: npm test -- auth\n', '      command: npm test -- auth\n      command: npm test\n'));
    // The same digits quoted (a string) and plain (a number) in one record: each scalar is decided as written, however often it repeats.
    const digits = {
      commit: '1234567',
      files: { 'a.ts': '1234567' },
      claims: [
        { claim: '1234567', command: 'make', exit: 1234567, commit: '1234567' },
        { claim: 'again', command: '1234567', exit: 1234567 },
      ],
    };
    for (const e of [evidence, digits, { commit: '', files: {}, claims: [] }, { commit: 'abc', files: { 'a.ts': 12 }, claims: [{ claim: '- dash', exit: -1 }] }]) {
      const text = renderCheckpoint(makeCheckpoint({ task: 't', extra: { evidence: e } }));
      same(text);
      if (e === digits) assert.ok(fastFrontmatter(text), text);
      assert.deepStrictEqual(indexRecord(text, '20260814-143207-claude', false), recordOfCheckpoint(text, '20260814-143207-claude', false));
    }
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.constantFrom(': ', ' #', '- ', '"', "'", '\n', '1e3', 'null', 'true', '12', '~', '{}', '[]', 'src/a.ts'),
    );
    const str = fc.array(piece, { maxLength: 4 }).map((p) => p.join(''));
    const claim = fc.record({
      claim: str,
      command: fc.option(str, { nil: undefined }),
      exit: fc.option(fc.integer({ min: -2, max: 300 }), { nil: undefined }),
      changed: fc.option(fc.array(str, { maxLength: 3 }), { nil: undefined }),
      unbacked: fc.option(fc.constant(true), { nil: undefined }),
    });
    fc.assert(
      fc.property(str, fc.dictionary(str, str, { maxKeys: 4 }), fc.array(claim, { maxLength: 4 }), (commit, files, claims) => {
        same(renderCheckpoint(makeCheckpoint({ task: 't', extra: { evidence: { commit, files, claims } } })));
      }),
      { numRuns: 400 },
    );
  });

  it('on claims’ evidence written a run at a time (the record Baton writes now), on the fast path, read back in the Verified order', () => {
    const verified = Array.from({ length: 12 }, (_, i) => `case ${i} holds — npm test -- case${i % 3}`);
    const run = (command: string, head: string): Run => ({ command, status: 'passed', exit: 0, ts: 1796279320, agent: 'codex', head, dirty: false });
    const runs = [run('npm test -- case0', 'abc1234def'), run('npm test -- case1', '1234567ff'), run('npm test -- case2', '')];
    const linked = verified.map((claim, i) => ({ claim, run: i === 5 ? null : runs[i % 3] }));
    // A path with a space is a key the hand reader leaves to js-yaml: the usual shape has none.
    const files = { 'src/auth.ts': 'sha256:0a4a738b9b6862aa', 'src/gone.ts': 'missing' };
    const record = evidenceRecord(linked, files, '8151448', (ts) => (ts > 0 ? ['src/auth.ts'] : []));
    const text = renderCheckpoint(makeCheckpoint({ task: 'expiry', verified, extra: { evidence: record } }));
    same(text);
    const fast = fastFrontmatter(text);
    assert.ok(fast, text);
    const cp = parseCheckpoint(text, '20260814-143207-claude', 'kestrel');
    const ev = evidenceOf(cp);
    assert.ok(ev);
    assert.deepEqual(
      ev.claims.map((c) => [c.claim, c.command ?? 'unbacked', c.commit ?? '']),
      verified.map((claim, i) => [claim, i === 5 ? 'unbacked' : `npm test -- case${i % 3}`, i === 5 ? '' : ['abc1234', '1234567', ''][i % 3]]),
    );
    assert.deepEqual(ev.claims[0].changed, ['src/auth.ts']);
    // Two copies of one run (as `baton verify --run` rebuilds the fresh claims' runs from the record) are one entry.
    assert.deepEqual(
      evidenceRecord(
        [
          { claim: 'a', run: { ...runs[0] } },
          { claim: 'b', run: { ...runs[0] } },
        ],
        {},
        'c',
        () => [],
      ).runs.map((r) => r.backs),
      ['1 2'],
    );
    // Each run once: three runs and the unbacked item, not a record a claim.
    assert.equal(text.split('\n').filter((l) => l.includes('command:')).length, 3);
    assert.match(text, /\n {2}unbacked: '6'\n|\n {2}unbacked: "6"\n/);
    // The list edited to another length: the numbers no longer say which item is which, so nothing is backed.
    assert.equal(evidenceOf({ ...cp, verified: cp.verified.slice(1) }), null);
    assert.equal(evidenceOf({ ...cp, verified: ['added by hand above the others', ...cp.verified] }), null);
    // A number outside the list, or an item named twice: the same.
    for (const bad of [
      { ...record, unbacked: '13' },
      { ...record, unbacked: '1' },
    ])
      assert.equal(evidenceOf({ extra: { evidence: bad }, verified }), null);
    const str = fc.array(fc.constantFrom(': ', ' #', '- ', '"', "'", '1e3', 'null', '12', '~', 'a', ' ', '7 8'), { maxLength: 4 }).map((p) => p.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.record({ command: str, exit: fc.integer({ min: -2, max: 300 }), backs: str, changed: fc.array(str, { maxLength: 2 }) }), { maxLength: 3 }),
        str,
        (rs, unbacked) => {
          same(
            renderCheckpoint(
              makeCheckpoint({ task: 't', extra: { evidence: { commit: 'c', files: {}, items: 2, runs: rs.map((r) => ({ ...r, ran: '2026-12-03T06:28:40Z' })), unbacked } } }),
            ),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on the fixture vaults, where the index reads each file as the real parser does', () => {
    const fixtures = path.resolve(__dirname, '../fixtures');
    const files = (fs.readdirSync(fixtures, { recursive: true }) as string[])
      .filter((f) => isCheckpointFileName(path.basename(f)))
      .map((f) => ({ file: f, text: fs.readFileSync(path.join(fixtures, f), 'utf8'), id: path.basename(f, '.md') }));
    assert.ok(files.length >= 10, files.map((f) => f.file).join(', '));
    for (const { file, text, id } of files) {
      const scope = path.dirname(file).split(path.sep).slice(2).join('/') || 'logos';
      assert.deepStrictEqual(parseCheckpoint(text, id, scope), parseCheckpointSlow(text, id, scope), file);
      assert.deepStrictEqual(indexRecord(text, id, false), recordOfCheckpoint(text, id, false), file);
    }
    // The hand reader is what is under test: it must accept most of them (Logos's included), not hand all to js-yaml.
    const fast = files.filter((f) => fastFrontmatter(f.text) !== null).map((f) => f.file);
    assert.ok(fast.length >= files.length - 3, `fast path taken for ${fast.join(', ')}`);
    assert.ok(fast.includes(path.join('logos', '20260814-143207-claude.md')), 'the Logos checkpoint takes the fast path');
  });
});
