// A cold build of a big vault reads in worker threads started from
// dist/indexWorker.js beside the running bundle (from source, under tsx, the
// .ts entry). Here the shipped CLI builds an index of a vault past the
// worker threshold from a fresh `.baton/`, through the workers alone, and it
// must equal the index this thread builds without them; a CLI whose folder
// lacks the worker still builds it (quietly, on one thread) unless told it
// must use workers.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SqlIndex } from '../../src/adapters/index/sqlIndex';
import { run } from '../../src/cli/run';
import { FsVault } from '../../src/adapters/vault/fsVault';
import { generateVault } from '../../bench/generate';
import { spawnCli } from '../support/spawnCli';
import { CLI, cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

/** What two indexes must agree on. */
function sameIndex(a: SqlIndex, b: SqlIndex): void {
  assert.deepEqual(a.summaries(), b.summaries());
  assert.deepEqual(a.deadEnds(), b.deadEnds());
  assert.equal(a.checkpointCount(), b.checkpointCount());
  // Every checkpoint's length for BM25 came with its batch's lists, the lists of the batches cut last included.
  assert.deepEqual(a.textFigures(), b.textFigures());
  for (const q of ['README.md', 'index.ts', 'src/index.ts', 'go.mod', 'a.ts', 'package.json']) assert.deepEqual(a.touching(q), b.touching(q), q);
  // Full text, read in the workers too: the same hits (ids differ with the order files were read in).
  for (const words of [['mock'], ['retry', 'cursor'], ['outbox', 'error', 'race'], ['zanzibarquux'], ['quuxbeyond'], ['xylophonist']]) {
    const hits = (i: SqlIndex): string[] =>
      i
        .search({ words, limit: 200 })
        .map((h) => `${h.slug} ${h.field} ${h.score} ${h.snippet}`)
        .sort();
    const got = hits(a);
    assert.ok(got.length > 0, words.join(' '));
    assert.deepEqual(got, hits(b), words.join(' '));
  }
}

/** The index this thread builds alone, of a copy of `root`'s sessions (left for the snippets, which are read from the files). */
async function inlineIndex(root: string, copy: string): Promise<SqlIndex> {
  fs.cpSync(path.join(root, 'sessions'), path.join(copy, 'sessions'), { recursive: true });
  const index = await SqlIndex.open(new FsVault(copy), { workers: { mode: 'never' } });
  const stats = await index.refresh();
  assert.equal(stats.checkpointsReadInWorkers, 0);
  return index;
}

/**
 * A word in every 25th checkpoint's Next, all through the walk: a batch whose
 * lists were lost, the last ones' as much as any, loses some of its hits.
 */
function markEvery25th(root: string): void {
  let n = 0;
  for (const project of fs.readdirSync(path.join(root, 'sessions')).sort()) {
    const dir = path.join(root, 'sessions', project);
    for (const name of fs
      .readdirSync(dir)
      .filter((f) => /^\d{8}-.*\.md$/.test(f))
      .sort()) {
      if (n++ % 25 !== 0) continue;
      const file = path.join(dir, name);
      fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8').trimEnd()}\n\n## Next\n\nxylophonist\n`);
    }
  }
}

/**
 * One checkpoint early in the walk made bigger than a worker reads (1 MiB),
 * and a word in its Next, past that: this thread reads it again, every section kept, in the middle of a
 * worker's batch, so the batch's ids do not follow one another and its lists
 * are moved posting by posting (TextIndex.putWorkerLists).
 */
function growPastTheCap(root: string): void {
  const project = fs.readdirSync(path.join(root, 'sessions')).sort()[0];
  const dir = path.join(root, 'sessions', project);
  const name = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.md') && /^\d{8}-/.test(n))
    .sort()[10];
  const file = path.join(dir, name);
  const text = fs.readFileSync(file, 'utf8');
  const filler = 'zanzibarquux padding words '.repeat(45_000);
  fs.writeFileSync(file, `${text.replace('## State\n\n', `## State\n\n${filler}\n\n`).trimEnd()}\n\n## Next\n\nquuxbeyond\n`);
  assert.ok(fs.statSync(file).size > 1 << 20);
}

describe('the cold build’s worker threads, as shipped', function () {
  this.timeout(120_000);
  let root: string;
  let inline: SqlIndex;
  let copy: string;
  before(async () => {
    ensureBuilt();
    root = tempDir('baton-worker-');
    // Past the 2000 files a cold build needs before it starts workers by itself.
    generateVault(root, { checkpoints: 2500, projects: 20, seed: 11 });
    growPastTheCap(root);
    markEvery25th(root);
    copy = tempDir('baton-worker-inline-');
    inline = await inlineIndex(root, copy);
  });
  after(() => {
    inline.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(copy, { recursive: true, force: true });
  });
  beforeEach(() => fs.rmSync(path.join(root, '.baton'), { recursive: true, force: true }));

  it('`baton index` from a fresh .baton/ reads every file in dist/indexWorker.js and builds the same index', async () => {
    assert.ok(fs.existsSync(path.join(path.dirname(CLI), 'indexWorker.js')), 'esbuild.js builds the worker beside the CLI');
    // Workers only, and (BATON_INDEX_WORKER=1, read by app/openBaton.ts) a worker that cannot start or fails is an error.
    const r = await cli(['index'], { vault: root, env: { BATON_INDEX_WORKER: '1' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`Indexed ${inline.checkpointCount()} checkpoint`));
    const saved = await SqlIndex.open(new FsVault(root));
    try {
      sameIndex(saved, inline);
    } finally {
      saved.close();
    }
  });

  it('the default (no knobs: workers past 2000 files on two cores) gets the same index', async () => {
    const r = await cli(['index'], { vault: root });
    assert.equal(r.code, 0, r.stderr);
    const saved = await SqlIndex.open(new FsVault(root));
    try {
      sameIndex(saved, inline);
    } finally {
      saved.close();
    }
  });

  it('a CLI folder without the worker still builds the index on one thread, and says so when workers are required', async () => {
    const bare = tempDir('baton-no-worker-');
    try {
      const dist = path.dirname(CLI);
      for (const name of fs.readdirSync(dist).filter((n) => !n.endsWith('.map') && n !== 'indexWorker.js')) {
        fs.copyFileSync(path.join(dist, name), path.join(bare, name));
      }
      const moved = path.join(bare, 'cli.js');
      const index = (env: NodeJS.ProcessEnv) => spawnCli(moved, ['index'], { vault: root, cwd: root, env });
      const strict = await index({ BATON_INDEX_WORKER: '1' });
      assert.notEqual(strict.code, 0);
      assert.match(strict.stderr, /No index worker beside/);
      fs.rmSync(path.join(root, '.baton'), { recursive: true, force: true });
      const quiet = await index({});
      assert.equal(quiet.code, 0, quiet.stderr);
      const saved = await SqlIndex.open(new FsVault(root));
      try {
        sameIndex(saved, inline);
      } finally {
        saved.close();
      }
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });

  it('under tsx, in this process, the workers run indexWorker.ts from source', async () => {
    // Workers only, and a worker that cannot start or fails is an error.
    const index = await SqlIndex.open(new FsVault(root), { workers: { mode: 'always', steal: false } });
    try {
      const stats = await index.refresh();
      assert.equal(stats.checkpointsReadInWorkers, stats.checkpointsParsed);
      sameIndex(index, inline);
    } finally {
      index.close();
    }
  });

  it('a worker that stops holding the terms of the batches it was to cut last: this thread cuts them, and the index is the same', async () => {
    const index = await SqlIndex.open(new FsVault(root), { workers: { steal: false, dieAtDrain: true } });
    try {
      const stats = await index.refresh();
      assert.ok(stats.checkpointsReadInWorkers > 0, 'a worker read the files (this test needs two cores)');
      sameIndex(index, inline);
    } finally {
      index.close();
    }
  });

  it('`baton index` run in this process (from source, under tsx) builds the same index through them', async () => {
    let out = '';
    let err = '';
    const io = { cwd: root, env: { ...process.env, BATON_VAULT: root }, out: (t: string) => void (out += t), err: (t: string) => void (err += t), stdin: async () => '' };
    // The CLI opens Baton through app/openBaton.ts, which reads the switch from this process's environment.
    const saved = process.env.BATON_INDEX_WORKER;
    process.env.BATON_INDEX_WORKER = '1';
    let code: number;
    try {
      code = await run(['index', '--vault', root], io);
    } finally {
      if (saved === undefined) delete process.env.BATON_INDEX_WORKER;
      else process.env.BATON_INDEX_WORKER = saved;
    }
    assert.equal(code, 0, err);
    assert.match(out, new RegExp(`Indexed ${inline.checkpointCount()} checkpoint`));
    const built = await SqlIndex.open(new FsVault(root));
    try {
      sameIndex(built, inline);
    } finally {
      built.close();
    }
  });
});
