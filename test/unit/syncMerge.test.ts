// The pieces of a sync that need no git: the notes' three-way merge, the
// checkpoint rename, and the vault's gate that every writer honours.
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { mergeNotes } from '../../src/adapters/markdown/notesMerge';
import { linksTo, withFollows, withSession } from '../../src/adapters/markdown/checkpointRename';
import { FsVault } from '../../src/adapters/vault/fsVault';
import { syncStatusText } from '../../src/core/syncText';
import { cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

const header = '# uncommitted — kestrel\n\nWorking notes from sessions that have not been checkpointed yet.\n\n';
const note = (text: string, ts: number, agent = 'claude'): string => `- ${text} <!-- ts=${ts} agent=${agent} -->\n`;
const buf = (s: string | null): Buffer | null => (s === null ? null : Buffer.from(s, 'utf8'));
const merged = (b: string | null, o: string | null, t: string | null): string | null => mergeNotes(buf(b), buf(o), buf(t))?.toString('utf8') ?? null;

describe('sync: the working notes merge', () => {
  it('both sides appended: every note once, ours first', () => {
    const base = header + note('n1', 1);
    assert.equal(merged(base, base + note('a', 2), base + note('b', 3)), base + note('a', 2) + note('b', 3));
  });

  it('a note folded on one side stays folded, whichever side folded it', () => {
    const base = header + note('n1', 1) + note('n2', 2);
    const folded = header + note('n2', 2);
    assert.equal(merged(base, folded, base + note('n3', 3)), folded + note('n3', 3));
    assert.equal(merged(base, base + note('n3', 3), folded), header + note('n2', 2) + note('n3', 3));
  });

  it('a file deleted on one side (all its notes folded) with new notes on the other keeps only the new ones', () => {
    const base = header + note('n1', 1);
    assert.equal(merged(base, null, base + note('new', 5)), header + note('new', 5));
    assert.equal(merged(base, base + note('new', 5), null), header + note('new', 5));
    assert.equal(merged(base, null, base), null, 'nothing open: no notes file');
  });

  it('both sides created the file (no base): the union; the same note on both is one', () => {
    assert.equal(merged(null, header + note('x', 1) + note('same', 2), header + note('same', 2) + note('y', 3)), header + note('x', 1) + note('same', 2) + note('y', 3));
  });

  it("a person's lines are kept byte for byte, theirs arrive; a torn last line gets its newline", () => {
    const base = header + note('n1', 1);
    const ours = base + '## my to-do\n- buy milk\n' + note('a', 2) + 'torn li';
    const out = mergeNotes(buf(base), Buffer.concat([Buffer.from(ours), Buffer.from([0xff])]), buf(base + 'their own line\n'))!;
    assert.ok(out.includes(Buffer.from([0x74, 0x6f, 0x72, 0x6e, 0x20, 0x6c, 0x69, 0xff, 0x0a])), 'non-UTF-8 byte kept');
    assert.match(out.toString('latin1'), /## my to-do\n- buy milk\n.*their own line\n$/s);
  });
});

describe('sync: renaming a checkpoint', () => {
  const text =
    '---\ntype: checkpoint\nsession: 20260901-100000-claude\nrelations:\n  - { pred: follows, obj: "[[20260901-090000-claude]]", conf: 1.0, src: stated }\n---\n\n## Task\n\nsession: [[20260901-090000-claude]] in the body\n';
  it('changes session: and follows in the frontmatter only', () => {
    const renamed = withFollows(withSession(text, '20260901-100001-claude'), '20260901-090000-claude', '20260901-090001-claude');
    assert.match(renamed, /^session: 20260901-100001-claude$/m);
    assert.match(renamed, /obj: "\[\[20260901-090001-claude\]\]"/);
    assert.ok(renamed.endsWith('session: [[20260901-090000-claude]] in the body\n'), 'the body is untouched');
    assert.ok(linksTo(text, '20260901-090000-claude'));
    assert.ok(!linksTo(text, '20260901-100000-claude'));
  });
});

describe("sync: the vault's gate", function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('a note waits while a sync holds the vault, then is written', async () => {
    const root = tempDir();
    const vault = new FsVault(root);
    const file = path.join(root, 'sessions', 'kestrel', 'uncommitted.md');
    let released = 0;
    let writing: Promise<{ code: number }> | undefined;
    await vault.withVaultExclusive(async () => {
      writing = cli(['note', '--project', 'kestrel', '--agent', 'claude', 'waited'], { vault: root });
      await new Promise((r) => setTimeout(r, 1500));
      assert.ok(!fs.existsSync(file) || !fs.readFileSync(file, 'utf8').includes('waited'), 'no write while the sync holds the vault');
      released = Date.now();
    });
    const r = await writing!;
    assert.equal(r.code, 0);
    assert.ok(Date.now() >= released);
    assert.match(fs.readFileSync(file, 'utf8'), /waited/);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe("sync: a dead syncer's gate", function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('stands while the git it started still holds index.lock (SIGKILL does not reach git), and is broken once git is done', async () => {
    const root = tempDir();
    // A real dead holder: a process that ran and exited, named in the gate as a sync names itself.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const holder = {
      host: os.hostname(),
      ns: fs.readlinkSync('/proc/self/ns/pid'),
      boot: fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      pid: Number(dead.stdout),
      start: '1',
      token: 'dead',
      key: 'vault:sync',
    };
    const locks = path.join(root, '.baton-live', 'locks');
    fs.mkdirSync(locks, { recursive: true });
    fs.writeFileSync(path.join(locks, `${createHash('sha256').update('vault:sync').digest('hex').slice(0, 24)}.lock`), JSON.stringify(holder));
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'index.lock'), '');
    let done = false;
    const writing = cli(['note', '--project', 'kestrel', '--agent', 'claude', 'after git'], { vault: root }).then((r) => {
      done = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(!done, 'the note waits while git still works in the vault');
    fs.rmSync(path.join(root, '.git', 'index.lock'));
    const r = await writing;
    assert.equal(r.code, 0, r.stderr);
    assert.match(fs.readFileSync(path.join(root, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8'), /after git/);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('sync: the status bar words', () => {
  const base = { ahead: 0, behind: 0, changed: 0, syncing: false, lastSynced: 0, failed: '' };
  it('says synced, what waits, syncing, failed', () => {
    assert.equal(syncStatusText(base, 100).text, '$(check) synced');
    assert.equal(syncStatusText({ ...base, ahead: 2, behind: 1, changed: 3 }, 100).text, '$(sync) ↑2 ↓1 ±3');
    assert.equal(syncStatusText({ ...base, syncing: true }, 100).text, '$(sync~spin) syncing');
    const failed = syncStatusText({ ...base, failed: 'Could not fetch', lastSynced: 40 }, 100);
    assert.equal(failed.text, '$(error) sync failed');
    assert.match(failed.tooltip, /the last sync failed: Could not fetch\n.*\nlast synced 1m ago/);
  });
});
