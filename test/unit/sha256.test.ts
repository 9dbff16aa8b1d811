// The plain-JavaScript SHA-256 (src/core/sha256.ts) against Node's crypto: lock
// files, pending notes and hashed session keys are named by it, so one wrong
// digest would make two Baton versions take different locks for one scope.
import { strict as assert } from 'assert';
import { createHash } from 'crypto';
import { sha256Hex } from '../../src/core/sha256';

const node = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('matches crypto on the standard vectors, every length across the block boundaries, and non-ASCII text', () => {
    assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (let n = 0; n <= 300; n++) {
      const s = 'scope:kestrel/'.repeat(30).slice(0, n);
      assert.equal(sha256Hex(s), node(s), `length ${n}`);
    }
    for (const s of ['scope:café', 'scope:cafe\u0301', 'scope:日本語のプロジェクト', 'scope:🦊-emoji', 'a lone \ud800 surrogate', 'vault:sync', 'x'.repeat(100_000)])
      assert.equal(sha256Hex(s), node(s), s.slice(0, 20));
  });
});
