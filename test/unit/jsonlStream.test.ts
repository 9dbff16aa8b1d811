// Transcripts read line by line from fixed-size chunks (jsonlStream.ts): lines
// across chunk boundaries, a line too long to hold, a corrupt line and a torn
// last line, on real files.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { MAX_LINE_BYTES, jsonRecords, tallyText } from '../../src/adapters/transcripts/jsonlStream';
import { emptyTally } from '../../src/adapters/transcripts/pastSession';
import { tempDir } from './support/tempVault';

describe('jsonRecords: a transcript as a stream of records', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = tempDir('baton-jsonl-');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads lines that cross its chunks whole, and skips a corrupt one, an overlong one and a torn last one, counting each', () => {
    const file = path.join(dir, 'big.jsonl');
    const fd = fs.openSync(file, 'w');
    // 2.5 MB lines straddle the 1 MB chunks; a multi-byte character sits across a boundary somewhere among them.
    const big = (i: number): string => JSON.stringify({ i, pad: 'é'.repeat(1_300_000) }) + '\n';
    for (let i = 0; i < 3; i++) fs.writeSync(fd, big(i));
    fs.writeSync(fd, '{"not json\n');
    fs.writeSync(fd, '{"long":"' + 'x'.repeat(MAX_LINE_BYTES + 10) + '"}\n');
    fs.writeSync(fd, '{"i":3}\n\n{"i":4}\n{"i":5,"cut');
    fs.closeSync(fd);
    const tally = emptyTally();
    const got = [...jsonRecords(file, tally)].map((r) => (r as { i: number; pad?: string }).i);
    assert.deepEqual(got, [0, 1, 2, 3, 4]);
    assert.deepEqual(tally, { bad: 1, torn: true, long: 1 });
    assert.equal(tallyText(tally), 'a torn last line, 1 line(s) that are no JSON, 1 line(s) over 32 MB');
  });

  it('reads only what the file held when it was opened: a line being appended is no record yet', () => {
    const file = path.join(dir, 'growing.jsonl');
    fs.writeFileSync(file, '{"i":1}\n{"i":2}\n');
    const tally = emptyTally();
    const it = jsonRecords(file, tally);
    assert.deepEqual(it.next().value, { i: 1 });
    fs.appendFileSync(file, '{"i":3}\n');
    assert.deepEqual([...it], [{ i: 2 }]);
    assert.deepEqual(tally, emptyTally());
  });

  it('refuses a FIFO rather than waiting on it', function () {
    if (process.platform === 'win32') this.skip();
    const fifo = path.join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => [...jsonRecords(fifo, emptyTally())], /FIFO/);
  });
});
