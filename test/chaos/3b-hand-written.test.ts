// Scenario 3b: lines a person wrote by hand in `uncommitted.md` (a heading, a
// paragraph, a to-do, a bullet without Baton's metadata, CRLF, bytes that are
// not UTF-8) survive every fold, byte for byte and in their place, while the
// folded notes go and the open ones stay. The file is kept while such lines
// remain, and appends still land on lines of their own.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, log, occurrences, readRaw, removeTree, run, tempRoot } from './support';

describe('chaos 3b: hand-written lines in the notes file', function () {
  this.timeout(5 * 60_000);
  let root: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    root = tempRoot('baton-chaos3b-');
  });
  afterEach(() => removeTree(root));

  it('keeps every hand-written line through folds by two agents, and keeps the file while they remain', async () => {
    const started = Date.now();
    const vault = path.join(root, 'vault');
    const cli = (args: string[]) => run(args, { vault, timeoutMs: 60_000 });
    for (const [agent, text] of [
      ['claude', 'first claude note'],
      ['cursor', 'first cursor note'],
    ]) {
      const r = await cli(['note', '-p', 'kestrel', '-a', agent, text]);
      assert.ok(r.acked, r.stderr);
    }
    const file = path.join(vault, 'sessions', 'kestrel', 'uncommitted.md');
    const hand: Buffer[] = [
      Buffer.from('## My own heading'),
      Buffer.from('A paragraph I typed between the notes, with a <!-- comment -->.'),
      Buffer.from('- [ ] a to-do of mine, no metadata'),
      Buffer.from('- looks like a note but is not <!-- ts=soon agent=me -->'),
      Buffer.from('a line saved with CRLF\r'),
      Buffer.from([0x62, 0x79, 0x74, 0x65, 0x73, 0x20, 0xff, 0xfe, 0x80, 0x20, 0x6e, 0x6f, 0x74, 0x20, 0x55, 0x54, 0x46, 0x2d, 0x38]),
    ];
    // The person's lines go between the notes, as an editor would put them.
    const lines = fs.readFileSync(file).toString('latin1').split('\n');
    const at = lines.findIndex((l) => l.includes('first cursor note'));
    const out: Buffer[] = lines.slice(0, at).map((l) => Buffer.from(l, 'latin1'));
    out.push(...hand.slice(0, 3), Buffer.from(lines[at], 'latin1'), ...hand.slice(3));
    fs.writeFileSync(file, Buffer.concat(out.flatMap((b) => [b, Buffer.from('\n')])));
    for (const [agent, text] of [
      ['claude', 'second claude note'],
      ['cursor', 'second cursor note'],
    ]) {
      const r = await cli(['note', '-p', 'kestrel', '-a', agent, text]);
      assert.ok(r.acked, r.stderr);
    }

    const handLinesIn = (): Buffer[] => {
      const bytes = fs.readFileSync(file);
      const found: Buffer[] = [];
      let from = 0;
      for (;;) {
        const nl = bytes.indexOf(0x0a, from);
        if (nl < 0) break;
        const line = bytes.subarray(from, nl);
        if (hand.some((h) => h.equals(line))) found.push(line);
        from = nl + 1;
      }
      return found;
    };

    // claude commits: its notes fold, cursor's (a parallel agent still at work) stay, the person's lines stay.
    const c1 = await cli(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'claude commits']);
    assert.ok(c1.acked, c1.stderr);
    assert.equal(handLinesIn().length, hand.length, 'every hand-written line survives the first fold');
    assert.deepEqual(handLinesIn(), hand, 'byte for byte, in their order');
    let raw = readRaw(vault);
    assert.deepEqual(
      raw.notes.map((n) => n.text),
      ['first cursor note', 'second cursor note'],
      'the open notes stay, the folded ones go',
    );

    // cursor commits: no note is left, the person's lines are, so the file is kept.
    const c2 = await cli(['checkpoint', '-p', 'kestrel', '-a', 'cursor', '--task', 'cursor commits']);
    assert.ok(c2.acked, c2.stderr);
    assert.ok(fs.existsSync(file), 'the file is kept while hand-written lines remain');
    assert.deepEqual(handLinesIn(), hand, 'and they are all still there');

    // Appending after the hand-written lines still gives a note a line of its own.
    const late = await cli(['note', '-p', 'kestrel', '-a', 'claude', 'a note after the folds']);
    assert.ok(late.acked, late.stderr);
    raw = readRaw(vault);
    assert.deepEqual(
      raw.notes.map((n) => n.text),
      ['a note after the folds'],
    );
    const seen = occurrences(raw);
    for (const text of ['first claude note', 'second claude note', 'first cursor note', 'second cursor note']) {
      assert.equal(seen.get(text)?.length, 1, `${text} is recorded once`);
    }
    log(`${((Date.now() - started) / 1000).toFixed(1)}s`);
  });
});
