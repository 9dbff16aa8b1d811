// Files a repository or a person controls, read and edited by Baton (issue
// 29): the reading adapter refuses what is no regular file of bounded size or
// no UTF-8, before reading it; config edits refuse keys written twice and
// nesting past a parser's stack with a message; a symlinked settings file is
// edited through its link; a word past 64 letters is cut alike for the index
// and the query; a patch's headers are read in one pass. Real files, FIFOs
// and devices in a temporary folder.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { openForeign, readForeignBytes, readForeignUtf8 } from '../../src/adapters/foreignFile';
import { readJson } from '../../src/adapters/agents/jsonEdit';
import { duplicateKey, nestingDepth } from '../../src/adapters/agents/jsonShape';
import { BatonError } from '../../src/core/errors';
import { eachWord, MAX_WORD, termOf } from '../../src/adapters/search/terms';
import { patchedFiles } from '../../src/hooks/applyPatch';
import { world, type World } from './support/agentWorld';

const refusal = (re: RegExp) => (err: unknown) => err instanceof BatonError && err.kind === 'refused' && re.test(err.message);

describe('the reading adapter: only regular files of bounded size, never blocking', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'baton-foreign-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file, and one through a symlink; null when there is none', () => {
    fs.writeFileSync(path.join(dir, 'a.json'), '{"a":1}');
    fs.symlinkSync('a.json', path.join(dir, 'link.json'));
    assert.equal(readForeignUtf8(path.join(dir, 'a.json')), '{"a":1}');
    assert.equal(readForeignUtf8(path.join(dir, 'link.json')), '{"a":1}');
    assert.equal(readForeignUtf8(path.join(dir, 'none.json')), null);
    assert.equal(readForeignUtf8(path.join(dir, 'a.json', 'under-a-file')), null);
  });

  it('refuses a symlink to /dev/zero, a FIFO with no writer and a folder, without reading or waiting', () => {
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero.json'));
    execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
    fs.mkdirSync(path.join(dir, 'folder.json'));
    assert.throws(() => readForeignBytes(path.join(dir, 'zero.json')), refusal(/zero\.json is a device, not a regular file/));
    // Without O_NONBLOCK this open would wait for a writer for ever.
    assert.throws(() => openForeign(path.join(dir, 'fifo.json')), refusal(/fifo\.json is a FIFO/));
    assert.throws(() => readForeignBytes(path.join(dir, 'folder.json')), refusal(/is a folder/));
  });

  it('refuses a file past its bound, saying how big it is', () => {
    fs.writeFileSync(path.join(dir, 'big.json'), 'x'.repeat(101));
    assert.equal(readForeignBytes(path.join(dir, 'big.json'), 101)?.length, 101);
    assert.throws(() => readForeignBytes(path.join(dir, 'big.json'), 100), refusal(/is 101 bytes, more than the 100/));
  });

  it('refuses bytes that are not UTF-8, naming the first and its offset; a U+FFFD written as UTF-8 is text', () => {
    fs.writeFileSync(path.join(dir, 'latin1.json'), Buffer.from([0x7b, 0x22, 0x63, 0xe9, 0x22, 0x7d]));
    assert.throws(() => readForeignUtf8(path.join(dir, 'latin1.json')), refusal(/not UTF-8 \(byte 0xE9 at offset 3\)/));
    fs.writeFileSync(path.join(dir, 'fffd.json'), '{"a":"\uFFFD"}');
    assert.equal(readForeignUtf8(path.join(dir, 'fffd.json')), '{"a":"\uFFFD"}');
  });
});

describe('config edits are total: refused with a message, never a loop or a stack', function () {
  this.timeout(30_000);
  let w: World;
  beforeEach(() => {
    w = world();
  });
  afterEach(() => fs.rmSync(w.root, { recursive: true, force: true }));

  it('finds a key written twice anywhere, and the nesting depth past strings and comments', () => {
    assert.deepEqual(duplicateKey('{"a":1,"hooks":{},"hooks":{}}'), { path: '', key: 'hooks' });
    assert.deepEqual(duplicateKey('{"hooks":{"x":[{"c":1,"c":2}]}}'), { path: 'hooks.x[0]', key: 'c' });
    assert.equal(duplicateKey('{"a":{"k":1},"b":{"k":1}}'), null);
    assert.equal(nestingDepth('{"a":"[[[[", // [[[[\n /* {{{{ */ "b":[[1]], "c":"\\"["}'), 3);
    assert.equal(nestingDepth('['.repeat(5000) + ']'.repeat(5000)), 5000);
  });

  it('a settings file with "hooks" twice: connect and disconnect refuse, the file untouched', () => {
    const file = path.join(w.project, '.cursor', 'hooks.json');
    const text = '{"version":1,"hooks":{"stop":[]},"hooks":{"sessionStart":[{"command":"baton hook cursor session-start"}]}}\n';
    w.write(file, text);
    for (const action of ['connect', 'disconnect'] as const) assert.throws(() => w.run('cursor', action, 'project'), refusal(/has the key "hooks" twice/));
    assert.equal(w.read(file), text);
  });

  it('5,000 nested arrays: refused by depth before any parser recurses', () => {
    assert.throws(() => readJson(`{"x":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'f.json'), refusal(/f\.json nests 5001 levels deep/));
    assert.deepEqual(readJson(`{"x":${'['.repeat(200)}${']'.repeat(200)}}`, 'f.json').x !== undefined, true);
  });

  it('a Latin-1 settings file: connect refuses, so disconnect cannot hand it back changed', () => {
    const file = path.join(w.home, '.cursor', 'hooks.json');
    const bytes = Buffer.from('{"owner":"caf\xe9"}\n', 'latin1');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
    assert.throws(() => w.run('cursor', 'connect'), refusal(/not UTF-8 \(byte 0xE9 at offset 13\)/));
    assert.ok(fs.readFileSync(file).equals(bytes));
  });

  it('a symlinked settings file: connect writes its target and keeps the link; disconnect gives the bytes back there', () => {
    const target = path.join(w.root, 'dotfiles', 'hooks.json');
    const link = path.join(w.home, '.cursor', 'hooks.json');
    const mine = '{\n  "version": 1,\n  "hooks": {}\n}\n';
    w.write(target, mine);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(target, link);
    w.run('cursor', 'connect');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    assert.match(w.read(target), /hook cursor session-start/);
    w.run('cursor', 'disconnect');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    assert.equal(w.read(target), mine);
  });

  it('a symlink to nothing is refused, not replaced', () => {
    const link = path.join(w.home, '.cursor', 'hooks.json');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(w.root, 'gone.json'), link);
    assert.throws(() => w.run('cursor', 'connect'), refusal(/is a symlink to .*gone\.json, which does not exist/));
    assert.ok(fs.lstatSync(link).isSymbolicLink());
  });
});

describe('text work is linear', () => {
  const terms = (text: string): string[] => {
    const out: string[] = [];
    eachWord(text, (_s, _e, t) => out.push(t));
    return out;
  };

  it('cuts a word past 64 units to its first 64, for the index and the query alike, never halving a surrogate pair', () => {
    const long = 'acgt'.repeat(25_000);
    assert.equal(termOf(long), long.slice(0, MAX_WORD));
    assert.deepEqual(terms(`read ${long} again`), ['read', long.slice(0, MAX_WORD), 'again']);
    assert.equal(termOf(long.slice(0, 64) + 'zzz'), termOf(long));
    const astral = 'a'.repeat(63) + '𐀀'.repeat(10);
    assert.equal(termOf(astral), 'a'.repeat(63));
    // Stemming is unchanged under the cut.
    assert.equal(termOf('mocking'), 'mock');
  });

  it("reads a patch's headers once each, in order, trailing spaces cut", () => {
    const n = 100_000;
    let patch = '*** Begin Patch\n';
    for (let i = 0; i < n; i++) patch += `*** Update File: f${i % (n / 2)}.ts   \n@@\n-a\n+b\n`;
    patch += `*** Move to: moved.ts\n*** Add File: ${' '.repeat(50_000)}x\n*** End Patch\n`;
    const files = patchedFiles(patch);
    assert.equal(files.length, n / 2 + 2);
    assert.equal(files[0], 'f0.ts');
    assert.equal(files[n / 2], 'moved.ts');
    assert.ok(files[n / 2 + 1] === `${' '.repeat(50_000)}x`, 'the header with a path after 50,000 spaces');
  });
});
