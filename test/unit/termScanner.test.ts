// The WebAssembly word scanner (src/core/termScan.wat, through
// termScanner.ts) must count exactly what the JavaScript scanner of
// searchTerms.ts counts: the same term ids in the same order, the same
// weighted counts and length, whatever the text, the stretches and the
// tables' growth; and the module shipped must be what its source compiles to.
import { strict as assert } from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import { searchTextTerms, termNames } from '../../src/core/searchTerms';
import { DEAD_END_FIELD, FIELD_WEIGHTS, type SearchText } from '../../src/core/searchText';
import { WasmScanner } from '../../src/core/termScanner';
import { indexRecord } from '../../src/adapters/index/indexRecord';
import { sampleCheckpoints } from '../../bench/generate';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is plain Node
const wasmScript = require('../../scripts/wasm.js') as { generated(): Promise<string>; OUT: string };

/** What a scanner counted, by term: readable in a failure, and order-sensitive. */
function counted(src: SearchText, wasm: boolean, weights: readonly number[] = FIELD_WEIGHTS, dead = DEAD_END_FIELD): string {
  const d = searchTextTerms(src, weights, dead, wasm);
  const out: string[] = [];
  for (let k = 0; k < d.count; k++) out.push(`${termNames[d.ids[k]]}:${d.tfs[k]}`);
  return `${out.join(' ')} | ${d.length}`;
}

function same(src: SearchText, weights?: readonly number[], dead?: number): void {
  assert.equal(counted(src, true, weights, dead), counted(src, false, weights, dead), JSON.stringify(src).slice(0, 400));
}

/** A text and stretches of it: consecutive or with gaps, of any field, some ending on a 64-unit block's end. */
const searchText = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc.constantFrom('Mocking', 'caché', 'Ｔｅｓｔ', 'кэш', 'ΣΊΣΥΦΟΣ', '𝐁old', 'e\u0301', '①', '—', '🚀', '\ud800', '\udc00', 'p99', 'x', '中文字',
          'eightchr', 'ninechars', 'a'.repeat(64), 'b'.repeat(129), 'retry_backoff', '--', ' ', '\n', '\t', "don't", 'Ab12Cd'),
        fc.string({ unit: 'binary', maxLength: 12 }),
        fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '.', 'é', '—'), maxLength: 80 }),
      ),
      { maxLength: 30 },
    ),
    fc.array(fc.tuple(fc.nat(200), fc.nat(10), fc.boolean()), { maxLength: 12 }),
  )
  .map(([parts, cuts]): SearchText => {
    const text = parts.join(' ');
    const pieces: number[] = [];
    let at = 0;
    for (const [len, field, gap] of cuts) {
      if (gap) at = Math.min(text.length, at + 3);
      const end = Math.min(text.length, at + (len % 7 === 0 ? 64 : len));
      pieces.push(at, end, field % 10);
      at = end;
    }
    return { text, pieces };
  });

describe('the WebAssembly word scanner', () => {
  // A process cuts its first texts in JavaScript (the scanner costs a millisecond to make): past them here.
  before(() => {
    for (let i = 0; i < 300; i++) searchTextTerms({ text: 'warm up', pieces: [0, 7, 0] }, FIELD_WEIGHTS, DEAD_END_FIELD);
  });

  it('is what src/core/termScan.wat compiles to (node scripts/wasm.js)', async () => {
    assert.equal(fs.readFileSync(wasmScript.OUT, 'utf8'), await wasmScript.generated());
  });

  it('runs here: Node has WebAssembly with SIMD', () => {
    const help = { classes: new Uint8Array(0x10000), classify: () => 2, termId: () => -1, twin: () => -1 };
    assert.ok(WasmScanner.create(help), 'the scanner could not be made: every text would be cut in JavaScript');
  });

  it('counts what the JavaScript scanner counts, on any text and stretches of it', () => {
    fc.assert(
      fc.property(searchText, (src) => same(src)),
      { numRuns: 3000 },
    );
  });

  it('with other weights and no dead ends, and with a weight it cannot count (left to JavaScript)', () => {
    fc.assert(
      fc.property(searchText, (src) => {
        same(src, [1, 3, 1, 2, 1, 1, 1, 1, 1, 5], -1);
        same(src, [0.5, 1, 1, 1, 1, 1, 1, 1, 1, 1], 3);
      }),
      { numRuns: 500 },
    );
  });

  it('on the benchmark’s checkpoints, as the index reads them', () => {
    for (const c of sampleCheckpoints(300, 7)) {
      const search = indexRecord(c.text, c.id).search;
      assert.ok(search);
      same(search);
    }
  });

  it('words on a 64-unit block’s edges, and stretches ending on one', () => {
    for (const n of [62, 63, 64, 65, 127, 128, 129]) {
      const text = `${'w'.repeat(n)} ${'v'.repeat(64 - (n % 64) || 1)}x`;
      same({ text, pieces: [0, text.length, 0] });
      same({ text, pieces: [0, Math.min(n, text.length), 4, Math.min(n, text.length), text.length, 9] });
    }
  });

  it('asks JavaScript for a word once, however much its tables grew since', () => {
    // A help of its own, counting what is asked: ASCII letters and digits are words, the rest is not.
    const classes = new Uint8Array(0x10000).fill(2);
    for (let c = 0; c < 0x80; c++) if (/[A-Za-z0-9]/.test(String.fromCharCode(c))) classes[c] = 1;
    const names = new Map<string, number>();
    let asked = 0;
    const help = {
      classes,
      classify: () => 2,
      termId: (text: string, start: number, end: number) => {
        asked += 1;
        const w = text.slice(start, end);
        if (!names.has(w)) names.set(w, names.size);
        return names.get(w) as number;
      },
      twin: (id: number) => id + 1_000_000,
    };
    const scanner = WasmScanner.create(help);
    assert.ok(scanner);
    const text = Array.from({ length: 30_000 }, (_, i) => `w${i}x${'z'.repeat(i % 13)}`).join(' ');
    const out = { ids: new Int32Array(16), tfs: new Float64Array(16), count: 0, length: 0 };
    assert.ok(scanner.cut({ text, pieces: [0, text.length, 0] }, [1], -1, out));
    assert.equal(asked, 30_000);
    assert.equal(out.count, 30_000);
    assert.ok(scanner.cut({ text, pieces: [0, text.length, 0] }, [1], -1, out));
    assert.equal(asked, 30_000, 'every word was kept through the growth of the slots and of the kept units');
    assert.equal(out.length, 30_000);
  });

  it('as its tables grow: a text of 200k units and 25k words never met, then again', () => {
    const words = Array.from({ length: 25_000 }, (_, i) => `growth${i.toString(36)}${'q'.repeat(i % 11)}`);
    const text = words.join(' — ').slice(0, 200_000);
    const src = { text, pieces: [0, text.length >> 1, 4, text.length >> 1, text.length, 2] };
    same(src);
    same(src);
  });
});
