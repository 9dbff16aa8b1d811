// Scenario 5d: a full inode table (issue 29). The vault lives on a tmpfs
// mounted here as root with room to spare but only a few inodes, and the
// inodes are used up before each write: no new file or folder can be made,
// though every byte of room is free. A note or a checkpoint must then say the
// disk is full and what to do (never "no such file or directory", which is
// what Node's recursive mkdir reports when a parent cannot be made), and keep
// the contract of a full disk: nothing acknowledged that is not there, nothing
// written for what was refused, every acknowledged note there once when the
// inodes come back.
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, log, occurrences, readRaw, removeTree, run, tempRoot, walk, type RunResult } from './support';

/** What the refusal must say: the disk is out of room or inodes, and what to do. */
const FULL = /no free space or no free inodes left, so nothing was written\. Free some \(df -h and df -i show which\), then retry/;

/** Uses up the inodes of the file system holding `dir` with empty files, then frees `left` of them. */
function useInodes(dir: string, left: number): () => void {
  const filler = path.join(dir, 'filler');
  fs.mkdirSync(filler);
  const made: string[] = [];
  for (;;) {
    const f = path.join(filler, String(made.length));
    try {
      fs.closeSync(fs.openSync(f, 'wx'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      break;
    }
    made.push(f);
  }
  for (const f of made.splice(made.length - Math.min(left, made.length))) fs.rmSync(f);
  return () => fs.rmSync(filler, { recursive: true, force: true });
}

/** No stack, and no "no such file" for a full disk. */
function saysFull(r: RunResult, what: string): void {
  assert.doesNotMatch(r.stderr, /\n\s+at /, `${what}: no stack trace: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /ENOENT|no such file/i, `${what}: a full inode table reported as a missing file: ${r.stderr}`);
  assert.match(r.stderr, FULL, `${what}: says what is wrong and what to do: ${r.stderr}`);
}

describe('chaos 5d: no inode left on the vault’s disk', function () {
  this.timeout(10 * 60_000);
  let root: string;
  let mnt: string;
  before(function () {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) {
      log('skipped: needs Linux and root to mount a small tmpfs');
      this.skip();
    }
    ensureBuilt();
    root = tempRoot('baton-chaos5d-');
    mnt = path.join(root, 'mnt');
    fs.mkdirSync(mnt);
    // Room for megabytes, inodes for a few dozen files: the inodes run out first.
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,nr_inodes=64,mode=0700', 'tmpfs', mnt], { encoding: 'utf8' });
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

  it('a vault not made yet: note and checkpoint say the disk is full and write nothing', async () => {
    const vault = path.join(mnt, 'fresh');
    const cli = (args: string[]) => run(args, { vault, timeoutMs: 60_000 });
    const free = useInodes(mnt, 0);
    try {
      const note = await cli(['note', '-p', 'kestrel', '-a', 'claude', 'first note']);
      assert.equal(note.code, 1, `note: ${note.stdout}${note.stderr}`);
      saysFull(note, 'note');
      const cp = await cli(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'first checkpoint']);
      assert.equal(cp.code, 1, `checkpoint: ${cp.stdout}${cp.stderr}`);
      saysFull(cp, 'checkpoint');
      assert.ok(!fs.existsSync(vault), 'nothing was written');
    } finally {
      free();
    }
    // Inodes back: the same commands work at once.
    const note = await cli(['note', '-p', 'kestrel', '-a', 'claude', 'first note']);
    assert.equal(note.code, 0, note.stderr);
    const cp = await cli(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'first checkpoint']);
    assert.equal(cp.code, 0, cp.stderr);
  });

  it('a vault in use, 0 to 6 inodes left: every refusal says so, nothing refused is written, nothing acknowledged is lost', async () => {
    const vault = path.join(mnt, 'used');
    const cli = (args: string[]) => run(args, { vault, timeoutMs: 60_000 });
    const setup = await cli(['note', '-p', 'kestrel', '-a', 'claude', 'setup']);
    assert.equal(setup.code, 0, setup.stderr);
    const acked: string[] = [];
    const refused: string[] = [];
    const outcomes: string[] = [];
    for (let left = 0; left <= 6; left++) {
      const free = useInodes(mnt, left);
      const before = walk(vault)
        .map((e) => e.rel)
        .sort();
      try {
        // A new project needs its folder and its notes file; the known one a lock; a checkpoint several files.
        for (const [args, text] of [
          [['note', '-p', `new-${left}`, '-a', 'claude'], `new project note ${left}`],
          [['note', '-p', 'kestrel', '-a', 'cursor'], `known project note ${left}`],
          [['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task'], `checkpoint ${left}`],
        ] as const) {
          const r = await cli([...args, text]);
          assert.doesNotMatch(r.stderr, /\n\s+at /, `no stack trace: ${r.stderr}`);
          if (r.code === 0) {
            if (args[0] === 'note') acked.push(text);
            // Kept pending: the reason given is the full disk, in words.
            if (/not yet durable/.test(r.stderr)) saysFull(r, `${args[0]} with ${left} inodes left`);
            outcomes.push(`${left}:${args[0]}:${/not yet durable/.test(r.stderr) ? 'pending' : 'ok'}`);
          } else {
            assert.equal(r.code, 1, `${args[0]} with ${left} inodes left: ${r.stdout}${r.stderr}`);
            saysFull(r, `${args[0]} with ${left} inodes left`);
            refused.push(text);
            outcomes.push(`${left}:${args[0]}:refused`);
          }
        }
      } finally {
        free();
      }
      // A refusal leaves no file of its own behind (temporary files, a half-made folder's notes file).
      const after = walk(vault)
        .map((e) => e.rel)
        .filter((rel) => /\.tmp$/.test(rel));
      assert.deepEqual(after, [], `no temporary file left with ${left} inodes left (before: ${before.length} entries)`);
    }
    assert.ok(refused.length > 0, 'the full inode table refused something');
    log(`5d: ${outcomes.join(' ')}`);
    // Inodes back: pending notes are written out; every acknowledged note is there once, no refused one at all.
    const idx = await cli(['index', '--json']);
    assert.equal(idx.code, 0, idx.stderr);
    const raw = readRaw(vault);
    assert.deepEqual(raw.torn, [], 'no torn checkpoint');
    assert.deepEqual(raw.badNoteLines, [], 'no torn note line');
    // By the text alone: an origin comment before the metadata (docs/vault-format.md) is no part of it.
    const seen = new Map<string, unknown[]>();
    for (const [text, where] of occurrences(raw)) {
      const bare = text.replace(/ <!--[^]*?-->$/, '');
      seen.set(bare, [...(seen.get(bare) ?? []), ...where]);
    }
    for (const text of acked) assert.equal(seen.get(text)?.length ?? 0, 1, `acknowledged note "${text}" is recorded exactly once`);
    for (const text of refused.filter((t) => t.includes('note'))) assert.equal(seen.get(text)?.length ?? 0, 0, `refused note "${text}" was written`);
    for (const task of refused.filter((t) => t.startsWith('checkpoint')))
      assert.ok(!raw.checkpointFiles.some((c) => c.text.includes(`## Task\n${task}\n`)), `refused "${task}" was written`);
  });
});
