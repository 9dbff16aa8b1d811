// Scenario 10: what arrives by sync is hostile (issue 29, items 1 to 4). A
// teammate is a second clone of the same bare remote, writing with plain git
// what Baton would never commit (force-added locks and cache, attributes
// after Baton's, symbolic links), and pushing; the victim runs the real CLI.
// Each case is the attack as an adversary would make it, then the victim's
// sync, notes, checkpoints and a second clone, checked by reading files and
// git's trees without Baton's parsers.
import { strict as assert } from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { procStart } from '../../src/adapters/vault/lockHolder';
import { ensureBuilt, parseJson, removeTree, run, type RunResult } from './support';
import { gitIn, syncWorld, type SyncWorld } from '../support/syncWorld';

interface SyncJson {
  refused: { path: string; reason: string }[];
  unreadable: string[];
  conflicts: string[];
}

const lockName = (key: string): string => `${createHash('sha256').update(key).digest('hex').slice(0, 24)}.lock`;
const ns = (): string => {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
};
/** Paths of a commit's tree. */
const treePaths = (repo: string, env: NodeJS.ProcessEnv, rev: string): string[] => gitIn(repo, env, 'ls-tree', '-r', '--name-only', '--full-tree', rev).split('\n').filter(Boolean);

describe('chaos 10: what arrives by sync is hostile', function () {
  this.timeout(10 * 60_000);
  let w: SyncWorld | undefined;
  let outside = '';
  before(() => ensureBuilt());
  afterEach(() => {
    if (w) removeTree(w.root);
    if (outside) removeTree(outside);
    w = undefined;
    outside = '';
  });

  const cli = (args: string[], vault: string, env: NodeJS.ProcessEnv): Promise<RunResult> => run(args, { vault, env, cwd: path.dirname(vault), timeoutMs: 120_000 });
  /** The teammate's plain git: add (forced), commit, push. */
  const push = (world: SyncWorld, clone: string, message: string, ...paths: string[]): void => {
    gitIn(clone, world.env, 'add', '-f', '--', ...paths);
    gitIn(clone, world.env, '-c', 'user.name=mallory', '-c', 'user.email=m@example.invalid', 'commit', '-q', '-m', message);
    gitIn(clone, world.env, 'push', '-q', 'origin', 'HEAD:main');
  };
  const sync = async (world: SyncWorld, vault: string): Promise<SyncJson> => {
    const r = await cli(['sync', '--json'], vault, world.env);
    assert.equal(r.code, 0, `sync of ${vault}: ${r.stderr}`);
    const out = parseJson<SyncJson>(r, 'sync');
    return { ...out, refused: out.refused ?? [] };
  };
  /** What the sync said is checked after what it did: the harm, if any, is what a failure shows first. */
  let said: (() => void)[] = [];
  beforeEach(() => {
    said = [];
  });
  const thenSaid = (): void => {
    for (const check of said) check();
  };

  it("1: a teammate's forged locks (naming this machine and pid 1) cost nothing: not taken by sync, and not believed", async () => {
    w = await syncWorld(2, cli);
    const world = w;
    const [victim, mallory] = world.clones;
    // What a teammate can know of the victim: its host name (in every sync's commit message), the usual pid namespace, pid 1 and its start.
    const forged = (key: string): string => JSON.stringify({ host: os.hostname(), ns: ns(), pid: 1, start: procStart(1)?.start ?? '', token: 'forged', key });
    const locks = path.join(mallory, '.baton-live', 'locks');
    fs.mkdirSync(locks, { recursive: true });
    for (const key of ['scope:kestrel', 'vault:sync', 'vault:syncing']) fs.writeFileSync(path.join(locks, lockName(key)), forged(key));
    push(world, mallory, 'locks', '.baton-live');

    const first = await sync(world, victim);
    said.push(() =>
      assert.ok(
        first.refused.some((x) => x.path.startsWith('.baton-live/locks/')),
        `the sync says it left the forged locks out: ${JSON.stringify(first.refused)}`,
      ),
    );
    assert.deepEqual(
      fs.existsSync(path.join(victim, '.baton-live', 'locks')) ? fs.readdirSync(path.join(victim, '.baton-live', 'locks')).filter((n) => n.endsWith('.lock')) : [],
      [],
      'no forged lock written into the victim',
    );
    const note = await cli(['note', '-p', 'kestrel', '-a', 'claude', 'after the forged lock'], victim, world.env);
    assert.ok(note.acked, `note: ${note.stderr}`);
    assert.ok(note.ms < 20_000, `the note waited ${note.ms} ms (a believed lock makes it wait 40 s and fail)`);
    await sync(world, victim);
    assert.deepEqual(
      treePaths(world.remote, world.env, 'main').filter((p) => p.startsWith('.baton')),
      [],
      "the victim's push took the forged locks out of the remote",
    );

    // A forged lock that arrives another way (a hostile remote cloned by hand, a git pull) is not believed: the note goes through at once.
    const live = path.join(victim, '.baton-live', 'locks');
    fs.mkdirSync(live, { recursive: true });
    fs.writeFileSync(path.join(live, lockName('scope:kestrel')), forged('scope:kestrel'));
    fs.writeFileSync(path.join(live, lockName('vault:sync')), forged('vault:sync'));
    const again = await cli(['note', '-p', 'kestrel', '-a', 'claude', 'with a forged lock in place'], victim, world.env);
    assert.ok(again.acked && again.ms < 20_000, `note with a forged lock in place: exit ${again.code} after ${again.ms} ms: ${again.stderr}`);
    const sync2 = await cli(['sync', '--json'], victim, world.env);
    assert.ok(sync2.acked && sync2.ms < 20_000, `sync with a forged gate in place: exit ${sync2.code} after ${sync2.ms} ms: ${sync2.stderr}`);
    fs.writeFileSync(path.join(live, lockName('vault:sync')), forged('vault:sync'));
    // doctor does not call it well: the forged lock is one no live process of this machine holds.
    const doctor = await cli(['doctor'], victim, world.env);
    assert.match(doctor.stdout, /1 lock\(s\) left by dead processes/, doctor.stdout);
    thenSaid();
  });

  it(".baton/ and .baton-live/ a teammate force-added are neither checked out over the victim's nor pushed again; a clone of that remote takes none", async () => {
    w = await syncWorld(2, cli);
    const world = w;
    const [victim, mallory] = world.clones;
    assert.ok((await cli(['note', '-p', 'kestrel', '-a', 'claude', 'builds the index'], victim, world.env)).acked);
    assert.ok((await cli(['index'], victim, world.env)).acked);
    const index = path.join(victim, '.baton', 'index.sqlite');
    const mine = fs.readFileSync(index);
    fs.mkdirSync(path.join(mallory, '.baton'), { recursive: true });
    fs.writeFileSync(path.join(mallory, '.baton', 'index.sqlite'), 'not an index');
    fs.mkdirSync(path.join(mallory, '.baton-live', 'pending'), { recursive: true });
    fs.writeFileSync(path.join(mallory, '.baton-live', 'pending', '1-00000000-aa.json'), JSON.stringify({ scope: 'kestrel', agent: 'claude', ts: 1, text: 'injected' }));
    fs.mkdirSync(path.join(mallory, 'sessions'), { recursive: true });
    fs.writeFileSync(path.join(mallory, 'sessions', '.x.tmp'), 'a temporary file');
    push(world, mallory, 'cache', '.baton', '.baton-live', 'sessions/.x.tmp');

    const r = await sync(world, victim);
    assert.ok(fs.readFileSync(index).equals(mine), "the victim's index is its own");
    assert.ok(!fs.existsSync(path.join(victim, '.baton-live', 'pending', '1-00000000-aa.json')), 'no pending note taken from the remote');
    assert.ok(!fs.existsSync(path.join(victim, 'sessions', '.x.tmp')), 'no temporary file taken from the remote');
    for (const p of ['.baton/index.sqlite', '.baton-live/pending/1-00000000-aa.json', 'sessions/.x.tmp'])
      said.push(() =>
        assert.ok(
          r.refused.some((x) => x.path === p),
          `${p} reported: ${JSON.stringify(r.refused)}`,
        ),
      );
    const pushed = treePaths(victim, world.env, 'HEAD').filter((p) => p.startsWith('.baton') || p.endsWith('.tmp'));
    assert.deepEqual(pushed, [], "nothing of it in the victim's merge");
    assert.deepEqual(
      treePaths(world.remote, world.env, 'main').filter((p) => p.startsWith('.baton') || p.endsWith('.tmp')),
      [],
      'the remote cleaned by the push',
    );

    // Cloning a remote that still holds them (pushed again by the teammate) takes none of them either.
    gitIn(mallory, world.env, 'pull', '-q', '--no-rebase', 'origin', 'main');
    fs.mkdirSync(path.join(mallory, '.baton'), { recursive: true });
    fs.writeFileSync(path.join(mallory, '.baton', 'index.sqlite'), 'not an index, again');
    push(world, mallory, 'cache again', '.baton');
    const fresh = path.join(world.root, 'fresh');
    const c = await cli(['sync', '--clone', world.remote], fresh, world.env);
    assert.equal(c.code, 0, c.stderr);
    assert.ok(
      !fs.existsSync(path.join(fresh, '.baton', 'index.sqlite')) || fs.readFileSync(path.join(fresh, '.baton', 'index.sqlite'), 'utf8') !== 'not an index, again',
      'the clone took the cache',
    );
    said.push(() => assert.match(c.stdout, /Left out \.baton\/index\.sqlite/));
    thenSaid();
  });

  it(".gitattributes lines added after Baton's change nothing: no note doubled by merge=union, no checkpoint re-encoded by working-tree-encoding, and the sync says so", async () => {
    w = await syncWorld(2, cli);
    const world = w;
    const [victim, mallory] = world.clones;
    // n1 (claude) is folded on the victim, n2 (codex) stays open: both machines have them.
    assert.ok((await cli(['note', '-p', 'kestrel', '-a', 'claude', 'n1-folded-once'], victim, world.env)).acked);
    assert.ok((await cli(['note', '-p', 'kestrel', '-a', 'codex', 'n2-open'], victim, world.env)).acked);
    await sync(world, victim);
    await sync(world, mallory);
    fs.appendFileSync(path.join(mallory, '.gitattributes'), '*.md merge=union\nsessions/** working-tree-encoding=UTF-16LE\n');
    push(world, mallory, 'attributes', '.gitattributes');
    const got = await sync(world, victim);
    for (const what of [/merge=union/, /working-tree-encoding=UTF-16LE/])
      said.push(() =>
        assert.ok(
          got.refused.some((x) => x.path === '.gitattributes' && what.test(x.reason)),
          `the sync says ${what}: ${JSON.stringify(got.refused)}`,
        ),
      );

    // Both sides change the notes: the victim folds n1, the teammate's Baton adds n3.
    assert.ok((await cli(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'task-folds-n1 é'], victim, world.env)).acked);
    assert.ok((await cli(['note', '-p', 'kestrel', '-a', 'gemini', 'n3-theirs'], mallory, world.env)).acked);
    await sync(world, mallory);
    await sync(world, victim);
    await sync(world, mallory);
    const notes = fs.readFileSync(path.join(victim, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8');
    assert.ok(!notes.includes('n1-folded-once'), `a folded note came back open (doubled):\n${notes}`);
    assert.ok(notes.includes('n2-open') && notes.includes('n3-theirs'), `notes kept:\n${notes}`);
    const cp = treePaths(world.remote, world.env, 'main').find((p) => /^sessions\/kestrel\/\d{8}-\d{6}-claude\.md$/.test(p)) ?? '';
    assert.ok(cp, 'the checkpoint was pushed');
    const blob = gitIn(world.remote, world.env, 'show', `main:${cp}`);
    assert.match(blob, /## Task\n\ntask-folds-n1 é\n/, 'the pushed checkpoint is the UTF-8 the victim wrote');
    for (const clone of [victim, mallory]) assert.match(fs.readFileSync(path.join(clone, cp), 'utf8'), /## Task\n\ntask-folds-n1 é\n/, `${clone}: the checkpoint on disk is UTF-8`);
    thenSaid();
  });

  it('symbolic links arriving by sync are left out of the merge, and none (arrived or made here) is ever followed for a write', async () => {
    w = await syncWorld(2, cli);
    const world = w;
    const [victim, mallory] = world.clones;
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-outside-'));
    fs.writeFileSync(path.join(outside, 'file'), 'outside\n');
    assert.ok((await cli(['note', '-p', 'kestrel', '-a', 'claude', 'n1-before'], victim, world.env)).acked);
    await sync(world, victim);
    await sync(world, mallory);
    const notesFile = path.join(mallory, 'sessions', 'kestrel', 'uncommitted.md');
    fs.rmSync(notesFile);
    fs.symlinkSync(path.join(outside, 'file'), notesFile);
    fs.symlinkSync(outside, path.join(mallory, 'sessions', 'evil'));
    push(world, mallory, 'links', 'sessions');

    const r = await sync(world, victim);
    for (const p of ['sessions/evil', 'sessions/kestrel/uncommitted.md'])
      said.push(() =>
        assert.ok(
          r.refused.some((x) => x.path === p && /symbolic link/.test(x.reason)),
          `${p} reported: ${JSON.stringify(r.refused)}`,
        ),
      );
    assert.ok(!fs.existsSync(path.join(victim, 'sessions', 'evil')) && !isLink(path.join(victim, 'sessions', 'evil')), 'no link checked out');
    assert.ok(fs.lstatSync(path.join(victim, 'sessions', 'kestrel', 'uncommitted.md')).isFile(), "the victim's notes file is still a plain file");
    assert.match(fs.readFileSync(path.join(victim, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8'), /n1-before/, "the victim's notes are kept");
    assert.ok((await cli(['note', '-p', 'evil', '-a', 'claude', 'into the link'], victim, world.env)).code !== null);
    assert.ok((await cli(['note', '-p', 'kestrel', '-a', 'claude', 'n2-after'], victim, world.env)).acked);
    await cli(['checkpoint', '-p', 'evil', '-a', 'claude', '--task', 'out of the vault'], victim, world.env);

    // Made here: a folder and a notes file that are links are refused for every write, and left out of the sync.
    fs.symlinkSync(outside, path.join(victim, 'sessions', 'mine'));
    fs.mkdirSync(path.join(victim, 'sessions', 'osprey'));
    fs.symlinkSync(path.join(outside, 'file'), path.join(victim, 'sessions', 'osprey', 'uncommitted.md'));
    const viaLink = await cli(['note', '-p', 'mine', '-a', 'claude', 'via-a-link'], victim, world.env);
    assert.doesNotMatch(viaLink.stdout + viaLink.stderr, /\n\s+at /, 'no stack');
    await cli(['note', '-p', 'osprey', '-a', 'claude', 'into-a-linked-notes-file'], victim, world.env);
    const cpMine = await cli(['checkpoint', '-p', 'mine', '-a', 'claude', '--task', 'via a link'], victim, world.env);
    assert.notEqual(cpMine.code, 0, 'a checkpoint through a link is refused');
    await cli(['checkpoint', '-p', 'osprey', '-a', 'claude', '--task', 'folds a linked notes file'], victim, world.env);
    await cli(['plan', '-p', 'mine', '-a', 'claude', 'a plan via a link'], victim, world.env);
    assert.deepEqual(fs.readdirSync(outside).sort(), ['file'], 'nothing was created outside the vault');
    assert.equal(fs.readFileSync(path.join(outside, 'file'), 'utf8'), 'outside\n', 'the outside file is untouched');
    const after = await sync(world, victim);
    said.push(() =>
      assert.ok(
        after.refused.some((x) => x.path === 'sessions/mine') && after.refused.some((x) => x.path === 'sessions/osprey/uncommitted.md'),
        `local links reported: ${JSON.stringify(after.refused)}`,
      ),
    );
    const remoteTree = gitIn(world.remote, world.env, 'ls-tree', '-r', '--full-tree', 'main');
    assert.doesNotMatch(remoteTree, /^120000 /m, `no link on the remote:\n${remoteTree}`);
    const fresh = path.join(world.root, 'fresh');
    assert.equal((await cli(['sync', '--clone', world.remote], fresh, world.env)).code, 0);
    assert.ok(fs.lstatSync(path.join(fresh, 'sessions', 'kestrel', 'uncommitted.md')).isFile(), 'a new clone has the plain notes file');
    assert.match(fs.readFileSync(path.join(fresh, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8'), /n1-before[\s\S]*n2-after/);
    thenSaid();
  });
});

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
