// What a sync never takes from another machine, and what the vault never
// writes through (issue 29, items 2 to 4), on real files and a real git: the
// rule for tree entries, Baton's attribute rules in info/attributes and the
// report of the vault's own .gitattributes against them, and the vault's
// writes refused where a folder or a notes file is a symbolic link.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { VaultWriteError } from '../../src/core/errors';
import { refusedEntry } from '../../src/adapters/git/vaultRepo';
import { ensureInfoAttributes, INFO_ATTRIBUTES, overriddenAttributes } from '../../src/adapters/git/vaultGitFiles';
import { FsVault } from '../../src/adapters/vault/fsVault';
import { tempDir } from './support/tempVault';

const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

describe('sync: what is never taken from the remote', () => {
  it('refuses the cache, the locks, temporary files and anything but plain files under sessions/ and in .gitignore/.gitattributes', () => {
    const refused: [string, string][] = [
      ['.baton/index.sqlite', '100644'],
      ['.baton-live/locks/abc.lock', '100644'],
      ['.baton-live', '120000'],
      ['sessions/.uncommitted.md.1-ab.tmp', '100644'],
      ['sessions/evil', '120000'],
      ['sessions/kestrel/uncommitted.md', '120000'],
      ['sessions/kestrel/sub', '160000'],
      ['sessions', '120000'],
      ['.gitignore', '120000'],
      ['.gitattributes', '120000'],
    ];
    for (const [p, mode] of refused) assert.ok(refusedEntry(p, mode), `${p} ${mode} refused`);
    const taken: [string, string][] = [
      ['sessions/kestrel/uncommitted.md', '100644'],
      ['sessions/kestrel/20260101-000000-claude.md', '100755'],
      ['.gitattributes', '100644'],
      ['README.md', '100644'],
      ['docs/link', '120000'], // a person's own file outside what Baton reads or writes
    ];
    for (const [p, mode] of taken) assert.equal(refusedEntry(p, mode), null, `${p} ${mode} taken`);
  });
});

describe("sync: Baton's attribute rules win", () => {
  it('info/attributes gets Baton rules last, once, keeping a person’s own lines', async () => {
    const file = path.join(tempDir(), 'info', 'attributes');
    assert.equal(await ensureInfoAttributes(file), true);
    assert.equal(await ensureInfoAttributes(file), false, 'idempotent');
    fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}*.png binary\n`);
    assert.equal(await ensureInfoAttributes(file), true, 'a line after Baton’s moves Baton’s last again');
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    assert.deepEqual(lines.slice(-INFO_ATTRIBUTES.length), INFO_ATTRIBUTES);
    assert.ok(lines.includes('*.png binary'));
    assert.equal(lines.filter((l) => l === INFO_ATTRIBUTES[1]).length, 1);
  });

  it("names what the vault's .gitattributes files would do to Baton's files (macros and deeper files as git counts them), and nothing for Baton's own lines", async () => {
    const root = tempDir();
    const paths = ['sessions/k/uncommitted.md', 'sessions/k/20260101-000000-claude.md', 'sessions/k/plans/plan-20260101-000000-claude.md'];
    fs.writeFileSync(path.join(root, '.gitattributes'), 'sessions/**/*.md -text\nsessions/**/uncommitted.md -merge -text\n*.png binary\n');
    assert.deepEqual(await overriddenAttributes(root, paths), [], "Baton's own lines and a harmless one");
    fs.appendFileSync(path.join(root, '.gitattributes'), '[attr]sneaky merge=union\n*.md sneaky\n');
    fs.mkdirSync(path.join(root, 'sessions', 'k'), { recursive: true });
    fs.writeFileSync(path.join(root, 'sessions', '.gitattributes'), '*.md working-tree-encoding=UTF-16LE eol=crlf\n');
    const found = await overriddenAttributes(root, paths);
    assert.ok(
      found.some((f) => f.startsWith('merge=union on ')),
      found.join('; '),
    );
    assert.ok(
      found.some((f) => f.startsWith('working-tree-encoding=UTF-16LE on ')),
      found.join('; '),
    );
    assert.ok(
      found.some((f) => f.startsWith('eol=crlf on ')),
      found.join('; '),
    );
  });

  it('git itself gives Baton’s rules in info/attributes precedence over every .gitattributes', async () => {
    const root = tempDir();
    execFileSync('git', ['init', '-q', root], { env: gitEnv });
    fs.mkdirSync(path.join(root, 'sessions', 'k'), { recursive: true });
    fs.writeFileSync(path.join(root, '.gitattributes'), '*.md merge=union text eol=crlf\n');
    fs.writeFileSync(path.join(root, 'sessions', '.gitattributes'), '** working-tree-encoding=UTF-16LE ident filter=lfs\n');
    await ensureInfoAttributes(path.join(root, '.git', 'info', 'attributes'));
    const out = execFileSync(
      'git',
      ['check-attr', 'merge', 'text', 'eol', 'working-tree-encoding', 'ident', 'filter', '--', 'sessions/k/uncommitted.md', 'sessions/k/20260101-000000-a.md'],
      {
        cwd: root,
        env: gitEnv,
        encoding: 'utf8',
      },
    );
    assert.equal(
      out,
      [
        'sessions/k/uncommitted.md: merge: unset',
        'sessions/k/uncommitted.md: text: unset',
        'sessions/k/uncommitted.md: eol: unset',
        'sessions/k/uncommitted.md: working-tree-encoding: unset',
        'sessions/k/uncommitted.md: ident: unset',
        'sessions/k/uncommitted.md: filter: unset',
        'sessions/k/20260101-000000-a.md: merge: text',
        'sessions/k/20260101-000000-a.md: text: unset',
        'sessions/k/20260101-000000-a.md: eol: unset',
        'sessions/k/20260101-000000-a.md: working-tree-encoding: unset',
        'sessions/k/20260101-000000-a.md: ident: unset',
        'sessions/k/20260101-000000-a.md: filter: unset',
        '',
      ].join('\n'),
    );
  });
});

describe('the vault never writes through a symbolic link', () => {
  const note = { ts: 1_760_000_000, agent: 'claude', text: 'a note' } as never;
  const checkpoint = { agent: 'claude', task: 'x', decisions: [], failed: [], verified: [], blockers: [], commands: [], questions: [], files: [], ts: 1_760_000_000 };

  it('refuses a note, a checkpoint, a fold and a plan where a scope folder, the notes file or sessions/ is a link; nothing lands outside', async () => {
    const root = tempDir();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-outside-'));
    fs.writeFileSync(path.join(outside, 'file'), 'outside\n');
    const vault = new FsVault(root);
    fs.mkdirSync(path.join(root, 'sessions', 'k'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'sessions', 'evil'));
    fs.symlinkSync(path.join(outside, 'file'), path.join(root, 'sessions', 'k', 'uncommitted.md'));
    const refusedWrite = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
      await assert.rejects(fn, (err: unknown) => err instanceof VaultWriteError && /symbolic link/.test(err.message), what);
    };
    await refusedWrite('note into a linked folder', () => vault.appendNote('evil', note));
    await refusedWrite('note into a linked worktree folder', () => vault.appendNote('evil/wt', note));
    await refusedWrite('note into a linked notes file', () => vault.appendNote('k', note));
    await refusedWrite('checkpoint into a linked folder', () => vault.createCheckpoint('evil', checkpoint as never, 1_760_000_000));
    await refusedWrite('checkpoint beside a linked notes file', () => vault.createCheckpoint('k', checkpoint as never, 1_760_000_000));
    await refusedWrite('fold of a linked notes file', () => vault.removeNotes('k', []));
    await refusedWrite('plan into a linked folder', () => vault.createPlan('evil', { project: 'evil', agent: 'claude', ts: 1_760_000_000, text: 'plan' }));
    const moved = tempDir();
    fs.symlinkSync(outside, path.join(moved, 'sessions'));
    await refusedWrite('note when sessions/ is a link', () => new FsVault(moved).appendNote('k', note));
    assert.deepEqual(fs.readdirSync(outside), ['file']);
    assert.equal(fs.readFileSync(path.join(outside, 'file'), 'utf8'), 'outside\n');
    await vault.appendNote('plain', note);
    assert.match(fs.readFileSync(path.join(root, 'sessions', 'plain', 'uncommitted.md'), 'utf8'), /a note/, 'a plain scope still takes notes');
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
