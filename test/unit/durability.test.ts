// Issue 12, items 1-6, at the adapter level on real files: a paused lock
// holder, a write the disk refuses, an unreadable notes file, locks and
// pending notes outside the cache, no read cap that drops data, and lines
// written by hand. The chaos tier (test/chaos/1b, 2c, 3b, 5b, 5c, 7b) runs
// the same against the built CLI.
import { strict as assert } from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PassThrough } from 'stream';
import { parseCheckpoint } from '../../src/adapters/markdown/checkpointFile';
import { readCheckpointText, SECTION_CAP, WHOLE_CAP } from '../../src/adapters/vault/checkpointText';
import { readNoteLines, rewriteNotesWithout } from '../../src/adapters/vault/notesLines';
import { procStart, STALE_MS, VaultLocks } from '../../src/adapters/vault/scopeLock';
import { VaultReadError } from '../../src/core/errors';
import { framedInput } from '../../src/mcp/stdioFrames';
import { tempDir, tempVault, type TempVault } from './support/tempVault';

const line = (text: string, agent: string, ts: number): string => `- ${text} <!-- ts=${ts} agent=${agent} -->\n`;
const HEADER = '# uncommitted — kestrel\n\nWorking notes from sessions that have not been checkpointed yet.\n\n';

describe('durability (issue 12)', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());
  const notesFile = (): string => path.join(v.root, 'sessions', 'kestrel', 'uncommitted.md');

  describe('1. a paused lock holder', () => {
    it('keeps the lock of a real process stopped with SIGSTOP however old, and breaks it at once when it dies', async function () {
      if (process.platform === 'win32' || !procStart('self')) this.skip();
      const dir = tempDir('baton-locks-');
      const locks = new VaultLocks(dir);
      let name = '';
      await locks.with('scope:k', async () => {
        name = fs.readdirSync(dir).find((n) => n.endsWith('.lock')) ?? '';
      });
      const child = spawn('sleep', ['60']);
      await new Promise((r) => child.once('spawn', r));
      const pid = child.pid ?? 0;
      process.kill(pid, 'SIGSTOP');
      try {
        const ns = fs.readlinkSync('/proc/self/ns/pid');
        const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
        const file = path.join(dir, name);
        fs.writeFileSync(file, JSON.stringify({ host: os.hostname(), ns, boot, pid, start: procStart(pid)?.start, token: 'stopped' }));
        const old = new Date(Date.now() - 100 * STALE_MS);
        fs.utimesSync(file, old, old);
        assert.equal(await locks.tryWith('scope:k', async () => 'took'), null, 'a stopped holder keeps its lock');
        process.kill(pid, 'SIGKILL');
        await new Promise((r) => child.once('exit', r));
        const t0 = Date.now();
        assert.equal(await locks.tryWith('scope:k', async () => 'took'), 'took', 'a dead one loses it at once');
        assert.ok(Date.now() - t0 < 1000);
      } finally {
        child.kill('SIGKILL');
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('2. a write the disk refuses', () => {
    // A full disk's short write itself is chaos 5b's (a real full tmpfs): a notes file linked to /dev/full is never written through since issue 29.
    it('does not acknowledge an append into a notes file that is a link (here to /dev/full) and keeps the note pending', async function () {
      if (!fs.existsSync('/dev/full')) this.skip();
      await v.baton.note('kestrel', 'claude', 'first');
      fs.rmSync(notesFile());
      fs.symlinkSync('/dev/full', notesFile());
      const r = await v.baton.note('kestrel', 'claude', 'onto a full disk');
      assert.equal(r.durable, false);
      assert.match(r.reason, /symbolic link/);
      assert.equal(fs.readdirSync(path.join(v.root, '.baton-live', 'pending')).length, 1);
    });
  });

  describe('2b. a rescue that stopped halfway', () => {
    it('writes a pending note already in the notes file (appended, not yet forgotten) no second time', async () => {
      await v.baton.note('kestrel', 'claude', 'first');
      const ts = v.clock.t;
      fs.appendFileSync(notesFile(), line('appended before the crash', 'cursor', ts));
      const pending = path.join(v.root, '.baton-live', 'pending');
      fs.mkdirSync(pending, { recursive: true });
      fs.writeFileSync(path.join(pending, '1-aaaa-bbbb.json'), JSON.stringify({ scope: 'kestrel', agent: 'cursor', ts, text: 'appended before the crash' }));
      const r = await v.baton.reindex();
      assert.equal(r.rescued, 1);
      assert.equal(v.read('sessions/kestrel/uncommitted.md').split('appended before the crash').length - 1, 1);
      assert.deepEqual(fs.readdirSync(pending), []);
    });
  });

  describe('3. an unreadable notes file', () => {
    it('is an error that stops the commit and the close, never "no notes"', async () => {
      await v.baton.note('kestrel', 'claude', 'an open note');
      fs.renameSync(notesFile(), `${notesFile()}.keep`);
      fs.mkdirSync(notesFile()); // EISDIR: read fails as root too
      await assert.rejects(
        v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 't' } }),
        (e: unknown) => e instanceof VaultReadError && /Cannot read the working notes/.test(e.message),
      );
      await assert.rejects(v.baton.sessions('kestrel'), VaultReadError);
      assert.deepEqual(
        v.list('sessions/kestrel').filter((n) => /^[0-9]{8}-/.test(n)),
        [],
        'no checkpoint written',
      );
      fs.rmdirSync(notesFile());
      fs.renameSync(`${notesFile()}.keep`, notesFile());
      const ok = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 't' } });
      assert.equal(ok.folded, 1);
    });

    it('reads a missing file, or a file where the scope folder should be, as no notes', async () => {
      assert.deepEqual(await readNoteLines(path.join(v.root, 'nothing', 'uncommitted.md')), []);
      fs.writeFileSync(path.join(v.root, 'afile'), 'x');
      assert.deepEqual(await readNoteLines(path.join(v.root, 'afile', 'uncommitted.md')), []);
    });
  });

  describe('4. locks and pending notes outside the cache', () => {
    it('writes no lock and no pending note under .baton/, and rescues pending notes an older Baton left there', async () => {
      await v.baton.note('kestrel', 'claude', 'a note');
      await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 't' } });
      assert.ok(!fs.existsSync(path.join(v.root, '.baton', 'locks')), 'no lock in the cache');
      assert.ok(fs.existsSync(path.join(v.root, '.baton-live', 'locks')), 'they live beside it');
      const legacy = path.join(v.root, '.baton', 'pending');
      fs.mkdirSync(legacy, { recursive: true });
      fs.writeFileSync(path.join(legacy, '1-aaaa-bbbb.json'), JSON.stringify({ scope: 'kestrel', agent: 'cursor', ts: v.clock.t, text: 'left by an older Baton' }));
      const r = await v.baton.reindex();
      assert.equal(r.rescued, 1);
      assert.ok(v.read('sessions/kestrel/uncommitted.md').includes('left by an older Baton'));
      assert.deepEqual(fs.readdirSync(legacy), []);
    });

    it('keeps working when .baton/ and the locks folder are deleted between and during operations', async () => {
      for (let i = 0; i < 5; i++) {
        await v.baton.note('kestrel', 'claude', `note ${i}`);
        fs.rmSync(path.join(v.root, '.baton'), { recursive: true, force: true });
        fs.rmSync(path.join(v.root, '.baton-live', 'locks'), { recursive: true, force: true });
        await v.baton.reindex();
      }
      assert.equal((await v.baton.sessions('kestrel')).uncommitted.length, 5);
    });
  });

  describe('5. no cap that drops data', () => {
    it('reads every note of a file with lines across chunk boundaries, a 3 MB line among them', async () => {
      const dir = path.dirname(notesFile());
      fs.mkdirSync(dir, { recursive: true });
      let text = HEADER;
      const want: string[] = [];
      for (let i = 0; i < 3000; i++) {
        const t = i === 1500 ? `huge ${'é'.repeat(1_500_000)}` : `n${i} ${'x'.repeat(i % 700)}`;
        want.push(t.trim());
        text += line(t, 'claude', 100 + i);
      }
      fs.writeFileSync(notesFile(), text);
      assert.ok(fs.statSync(notesFile()).size > 3 * WHOLE_CAP);
      const got = await readNoteLines(notesFile());
      assert.deepEqual(
        got.map((n) => n.text),
        want,
      );
    });

    it('keeps every section of a checkpoint past 1 MB, each capped, and says what it left out', async () => {
      await v.baton.note('kestrel', 'claude', `big ${'s'.repeat(100_000)}`);
      for (let i = 0; i < 15; i++) await v.baton.note('kestrel', 'claude', `big ${i} ${'s'.repeat(100_000)}`);
      const r = await v.baton.commit({
        scope: 'kestrel',
        agent: 'claude',
        fields: { task: 'big', failed: ['a dead end'], files: ['src/a.ts'], next: 'the next step', verified: ['it works — npm test'] },
      });
      assert.ok(fs.statSync(r.path).size > WHOLE_CAP);
      const text = (await readCheckpointText(r.path)) ?? '';
      assert.ok(text.length < 2 * SECTION_CAP + 64 * 1024, `${text.length} bytes read`);
      const cp = parseCheckpoint(text, path.basename(r.path, '.md'), 'kestrel');
      assert.deepEqual([cp?.failed, cp?.files, cp?.verified, cp?.next], [['a dead end'], ['src/a.ts'], ['it works — npm test'], 'the next step']);
      assert.match(cp?.state ?? '', /MB \([0-9]+ lines\) of this section not shown/);
      const latest = await v.baton.latest('kestrel');
      assert.equal(latest?.next, 'the next step');
      // A small checkpoint is read exactly as it is.
      const small = await v.baton.commit({ scope: 'kestrel', agent: 'cursor', fields: { task: 'small', next: 'n' } });
      assert.equal(await readCheckpointText(small.path), fs.readFileSync(small.path, 'utf8'));
    });

    it('says what it left out of a hand-typed heading of a list as an item of that list, and of Files as no path', async () => {
      const dir = path.dirname(notesFile());
      fs.mkdirSync(dir, { recursive: true });
      const many = (prefix: string) => Array.from({ length: 3000 }, (_, i) => `- ${prefix} ${i} ${'x'.repeat(200)}`).join('\n');
      const file = path.join(dir, '20260101-000000-claude.md');
      fs.writeFileSync(
        file,
        `---\nagent: claude\n---\n\n## Task\n\nbig by hand\n\n## didn\u2019t work ##\n\n${many('tried')}\n\n## files\n\n${many('src/f')}\n\n## Next\n\nthe step\n`,
      );
      assert.ok(fs.statSync(file).size > WHOLE_CAP);
      const cp = parseCheckpoint((await readCheckpointText(file)) ?? '', '20260101-000000-claude', 'kestrel');
      assert.match(cp?.failed.at(-1) ?? '', /of this section not shown/, "the notice is an item of the list, whatever the heading's spelling");
      assert.ok(
        cp?.files.every((f) => f.startsWith('src/f ')),
        'Files holds paths only',
      );
      assert.equal(cp?.next, 'the step');
    });

    it('frames MCP messages whole, and answers one past the limit with an error naming its id', async () => {
      const input = new PassThrough();
      const replies: string[] = [];
      const out = framedInput(input, (l) => replies.push(l), 1000);
      const got: string[] = [];
      out.on('data', (d: Buffer) => got.push(d.toString()));
      const ok = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'm', params: { t: 'a'.repeat(500) } }) + '\n';
      input.write(ok.slice(0, 100));
      input.write(ok.slice(100) + JSON.stringify({ method: 'm', params: { t: 'b'.repeat(5000) }, jsonrpc: '2.0', id: 7 }).slice(0, 3000));
      input.write(JSON.stringify({ method: 'm', params: { t: 'b'.repeat(5000) }, jsonrpc: '2.0', id: 7 }).slice(3000) + '\n' + ok);
      input.end();
      await new Promise((r) => out.on('end', r));
      assert.deepEqual(got, [ok, ok], 'whole messages, one each');
      assert.equal(replies.length, 1);
      const reply = JSON.parse(replies[0]) as { id: number; error: { message: string } };
      assert.equal(reply.id, 7);
      assert.match(reply.error.message, /refused a message of .* MB: .* up to .* MB/);
    });
  });

  describe('6. lines written by hand', () => {
    it('keeps every line that is not a folded note, drops a folded duplicate once, and removes a file left with only its header', async () => {
      const dir = path.dirname(notesFile());
      fs.mkdirSync(dir, { recursive: true });
      const hand = ['## my heading', 'my paragraph', '- [ ] a to-do'];
      fs.writeFileSync(
        notesFile(),
        HEADER + line('a', 'claude', 1) + hand[0] + '\n' + line('a', 'claude', 1) + line('b', 'cursor', 2) + hand[1] + '\n' + hand[2] + '\n' + '- torn <!-- ts=3 ag',
      );
      await rewriteNotesWithout(notesFile(), [{ text: 'a', agent: 'claude', ts: 1 }]);
      assert.equal(
        fs.readFileSync(notesFile(), 'utf8'),
        HEADER + hand[0] + '\n' + line('a', 'claude', 1) + line('b', 'cursor', 2) + hand[1] + '\n' + hand[2] + '\n' + '- torn <!-- ts=3 ag\n',
      );
      fs.writeFileSync(notesFile(), HEADER + line('a', 'claude', 1));
      await rewriteNotesWithout(notesFile(), [{ text: 'a', agent: 'claude', ts: 1 }]);
      assert.ok(!fs.existsSync(notesFile()), 'nothing but the header left: removed, as the contract says');
    });
  });
});
