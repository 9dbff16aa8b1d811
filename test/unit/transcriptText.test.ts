// The editor's read of a transcript (app/transcriptText.ts, what the
// transcript documents show): the path comes from a shared vault and the file
// is an agent's, so by the time it is read it can be a FIFO, a link to
// /dev/zero or a file grown past the bound. Each must be refused at once with
// a message naming it, never waited on or read whole. A hung read would show
// here as the test's timeout; the FIFO is given a writer after each test so a
// read stuck on it (the code before: fs.promises.readFile) lets go.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { transcriptText } from '../../src/app/transcriptText';

/** Awaited, so a reader that blocks shows as this test's timeout, whether it is sync or async. */
const read = async (file: string, maxBytes: number): Promise<string> => transcriptText(file, maxBytes);

describe('transcriptText: the transcript the editor opens is read only when it is a regular file of bounded size', function () {
  this.timeout(20_000);
  let dir: string;
  const fifos: string[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-transcript-'));
  });
  afterEach(() => {
    for (const f of fifos.splice(0)) {
      try {
        // Opening the write end releases a reader stuck in open(2); ENXIO when there is none.
        fs.closeSync(fs.openSync(f, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
      } catch {
        // no reader: nothing to release
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a regular file (and a link to one) exactly', async () => {
    const file = path.join(dir, 'session.jsonl');
    const text = '{"type":"user","message":{"content":"café ✓"}}\n';
    fs.writeFileSync(file, text);
    fs.symlinkSync(file, path.join(dir, 'linked.jsonl'));
    assert.equal(await read(file, 1 << 20), text);
    assert.equal(await read(path.join(dir, 'linked.jsonl'), 1 << 20), text);
  });

  it('refuses a FIFO at once, naming it', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = path.join(dir, 'session.jsonl');
    execFileSync('mkfifo', [fifo]);
    fifos.push(fifo);
    await assert.rejects(() => read(fifo, 1 << 20), /session\.jsonl is a FIFO, not a regular file/);
  });

  it('refuses a link to /dev/zero at once, naming it', async function () {
    if (!fs.existsSync('/dev/zero')) this.skip();
    const link = path.join(dir, 'session.jsonl');
    fs.symlinkSync('/dev/zero', link);
    await assert.rejects(() => read(link, 1 << 20), /session\.jsonl is a device, not a regular file/);
  });

  it('refuses a file past the bound, and a folder; says when there is none', async () => {
    const big = path.join(dir, 'big.jsonl');
    fs.writeFileSync(big, 'x'.repeat(1001));
    await assert.rejects(() => read(big, 1000), /big\.jsonl is 1001 bytes, more than the 1000/);
    fs.mkdirSync(path.join(dir, 'folder.jsonl'));
    await assert.rejects(() => read(path.join(dir, 'folder.jsonl'), 1000), /is a folder, not a regular file/);
    await assert.rejects(() => read(path.join(dir, 'gone.jsonl'), 1000), /gone\.jsonl is not on this machine/);
  });
});
