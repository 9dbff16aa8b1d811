// FileHashes (issue 26): what a claim's covered file hashes to, read only
// inside its repository and only when saved since. Its containment test is
// held to path.relative's, the rule it replaced on `baton verify`'s hot path.
import { strict as assert } from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FileHashes } from '../../src/adapters/fileHashes';
import { MISSING } from '../../src/core/evidence';

const sha = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

describe('FileHashes', () => {
  let dir: string;
  let root: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-hashes-'));
    root = path.join(dir, 'repo');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'a\n');
    fs.writeFileSync(path.join(root, '..env'), 'dots\n');
    fs.writeFileSync(path.join(root, 'top.md'), 'top\n');
    fs.writeFileSync(path.join(dir, 'outside.txt'), 'secret\n');
    fs.mkdirSync(path.join(dir, 'repo2'));
    fs.writeFileSync(path.join(dir, 'repo2', 'b.ts'), 'b\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a file inside the repository only, as path.relative says, however the path and the root are spelled', () => {
    const rels = [
      'src/a.ts',
      './src/a.ts',
      'src/../top.md',
      'top.md',
      '..env',
      '../outside.txt',
      'src/../../outside.txt',
      '../repo2/b.ts',
      path.join(root, 'src', 'a.ts'),
      path.join(dir, 'outside.txt'),
      path.join(dir, 'repo2', 'b.ts'),
      'src',
      '',
      'nope.ts',
    ];
    for (const r of [root, `${root}/`, path.join(root, 'src', '..')]) {
      const h = new FileHashes();
      for (const rel of rels) {
        const file = path.resolve(r, rel);
        const outside = path.relative(r, file).startsWith('..');
        const want = outside || !fs.existsSync(file) || !fs.statSync(file).isFile() ? MISSING : sha(fs.readFileSync(file, 'utf8'));
        assert.equal(h.hash(r, rel), want, `${r} ${rel}`);
      }
    }
  });

  it('hashes a file again only when it was saved since', () => {
    const h = new FileHashes();
    const file = path.join(root, 'src', 'a.ts');
    assert.equal(h.hash(root, 'src/a.ts'), sha('a\n'));
    assert.equal(h.hash(root, 'src/a.ts'), sha('a\n'));
    assert.equal(h.hashed, 1);
    fs.writeFileSync(file, 'b\n');
    const t = new Date(Date.now() + 5000);
    fs.utimesSync(file, t, t);
    assert.equal(h.hash(root, 'src/a.ts'), sha('b\n'));
    assert.equal(h.hashed, 2);
    // Another root naming the same file shares the cache; a file gone is missing.
    assert.equal(h.hash(path.join(root, 'src'), 'a.ts'), sha('b\n'));
    assert.equal(h.hashed, 2);
    fs.rmSync(file);
    assert.equal(h.hash(root, 'src/a.ts'), MISSING);
  });

  it('hashes each file by its own bytes alone, whatever size the files before it had (one buffer is kept between files)', () => {
    const h = new FileHashes();
    // Larger than the kept buffer at first, then smaller ones, an empty one, sizes either side of the first buffer's.
    const sizes = [200_000, 3, 70_000, 0, 1, 65_536, 65_537, 150_000];
    sizes.forEach((n, i) => fs.writeFileSync(path.join(root, `f${i}.bin`), Buffer.alloc(n, 97 + (i % 20))));
    for (const [i, n] of sizes.entries()) assert.equal(h.hash(root, `f${i}.bin`), sha('abcdefghijklmnopqrst'[i % 20].repeat(n)), `f${i}: ${n} bytes`);
    assert.equal(h.hashed, sizes.length);
  });
});
