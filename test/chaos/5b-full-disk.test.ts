// Scenario 5b: a full disk. The vault lives on a small tmpfs (4 MB, mounted
// here as root), filled so that only a few pages are free at the moment of a
// write: a note bigger than what is left gets a short write(2), a commit runs
// out of room at some step of its run. Nothing may be acknowledged that is
// not whole on disk, no torn line may stay behind to swallow the next note,
// and once room is made every acknowledged note is there exactly once.
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, log, occurrences, readRaw, removeTree, run, tempRoot } from './support';

const PAGE = 4096;

/** Fills the file system holding `dir` with one file, then frees `pages` pages of it. */
function fillLeaving(dir: string, pages: number): string {
  const filler = path.join(dir, 'filler.bin');
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  for (;;) {
    try {
      fs.writeSync(fd, chunk.subarray(0, PAGE));
    } catch {
      break;
    }
  }
  const size = fs.fstatSync(fd).size;
  fs.ftruncateSync(fd, Math.max(0, size - pages * PAGE));
  fs.closeSync(fd);
  return filler;
}

describe('chaos 5b: a full disk at the moment of a write', function () {
  this.timeout(10 * 60_000);
  let root: string;
  let mnt: string;
  before(function () {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) {
      log('skipped: needs Linux and root to mount a small tmpfs');
      this.skip();
    }
    ensureBuilt();
    root = tempRoot('baton-chaos5b-');
    mnt = path.join(root, 'mnt');
    fs.mkdirSync(mnt);
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', mnt], { encoding: 'utf8' });
    if (m.status !== 0) {
      log(`skipped: mount -t tmpfs is not permitted here (${(m.stderr || m.error?.message || '').trim()})`);
      removeTree(root);
      root = '';
      this.skip();
    }
  });
  after(() => {
    if (!root) return;
    spawnSync('umount', [mnt]);
    removeTree(root);
  });

  it('acknowledges only whole notes and commits, leaves no torn line, and loses or doubles nothing', async () => {
    const started = Date.now();
    const vault = path.join(mnt, 'vault');
    const cli = (args: string[]) => run(args, { vault, timeoutMs: 60_000 });
    const acked: string[] = [];
    const refusals: string[] = [];
    let i = 0;
    const note = async (text: string): Promise<void> => {
      const r = await cli(['note', '-p', 'kestrel', '-a', i++ % 2 ? 'claude' : 'cursor', text]);
      assert.doesNotMatch(r.stderr, /\n\s+at /, `no stack trace: ${r.stderr}`);
      if (r.acked && !/not yet durable/.test(r.stderr)) acked.push(text);
      else if (r.acked)
        acked.push(text); // kept pending: `baton index` must write it out
      else refusals.push(r.stderr.trim().split('\n')[0]);
    };
    for (let n = 0; n < 6; n++) await note(`room-${n} ${'r'.repeat(300)}`);

    // Big notes (40 KB) with 0..6 pages free: a short write for most of them.
    for (let pages = 0; pages <= 6; pages++) {
      const filler = fillLeaving(mnt, pages);
      await note(`big-${pages} ${String(pages).repeat(40_000)}`);
      fs.rmSync(filler);
      await note(`after-big-${pages}`);
      const raw = readRaw(vault);
      assert.deepEqual(
        raw.badNoteLines.map((b) => b.line.slice(0, 80)),
        [],
        `no torn line is left in the notes file (${pages} pages free)`,
      );
    }

    // Commits with 0..8 pages free: they run out of room at different steps.
    for (let pages = 0; pages <= 8; pages++) {
      await note(`before-commit-${pages}`);
      const filler = fillLeaving(mnt, pages);
      const r = await cli(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', `commit with ${pages} pages free ${'t'.repeat(3000)}`]);
      assert.doesNotMatch(r.stderr, /\n\s+at /, `no stack trace: ${r.stderr}`);
      if (!r.acked) refusals.push(r.stderr.trim().split('\n')[0]);
      fs.rmSync(filler);
      const raw = readRaw(vault);
      for (const [text, where] of occurrences(raw))
        assert.ok(where.length <= 1, `"${text.slice(0, 40)}" recorded twice after a commit with ${pages} pages free: ${where.map((w) => w.where).join(', ')}`);
    }

    // Room again: pending notes are written out; every acknowledged note is there, whole, once.
    const idx = await cli(['index', '--json']);
    assert.ok(idx.acked, idx.stderr);
    const raw = readRaw(vault);
    assert.deepEqual(raw.torn, [], 'no torn checkpoint');
    assert.deepEqual(
      raw.badNoteLines.map((b) => b.line.slice(0, 80)),
      [],
      'no torn note line',
    );
    const seen = occurrences(raw);
    for (const text of acked) assert.equal(seen.get(text)?.length ?? 0, 1, `acknowledged note "${text.slice(0, 40)}…" is recorded exactly once`);
    for (const [text, where] of seen) assert.equal(where.length, 1, `"${text.slice(0, 40)}" is recorded once`);
    assert.ok(refusals.length > 0, 'the full disk refused something');
    for (const msg of refusals) assert.match(msg, /refused a write|ENOSPC|free space/i, `a refusal says why: ${msg}`);
    log(
      `${acked.length} acknowledged, ${refusals.length} refused (${[...new Set(refusals.map((m) => m.slice(0, 60)))].join(' | ')}); ${((Date.now() - started) / 1000).toFixed(1)}s`,
    );
  });
});
