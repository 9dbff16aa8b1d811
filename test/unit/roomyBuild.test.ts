// A first build opens its database again with room for what it will write
// (src/adapters/index/roomyBuild.ts), so sql.js's in-memory file is not copied
// again and again as it grows. The room must never reach the saved index, nor
// change what the index answers; the walk reads the listings taken for it.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOM } from '../../src/adapters/index/roomyBuild';
import { INDEX_FILE, SqlIndex } from '../../src/adapters/index/sqlIndex';
import { loadSqlJs } from '../../src/adapters/index/sqlJs';
import { FsVault } from '../../src/adapters/vault/fsVault';
import { generateVault } from '../../bench/generate';
import { tempDir } from './support/tempVault';

/** A cold build of `root` with `room` bytes given per checkpoint file (0: none), saved; what it answers and the saved bytes. */
async function build(root: string, room: number): Promise<{ answers: string; saved: Buffer; stats: unknown }> {
  fs.rmSync(path.join(root, '.baton'), { recursive: true, force: true });
  const saved = { ...ROOM };
  ROOM.perCheckpoint = room;
  ROOM.min = room === 0 ? Infinity : 0;
  try {
    const index = await SqlIndex.open(new FsVault(root));
    try {
      const stats = await index.refresh();
      await index.save();
      const answers = JSON.stringify({
        summaries: index.summaries(),
        deadEnds: index.deadEnds(),
        count: index.checkpointCount(),
        touching: ['README.md', 'src/index.ts', 'go.mod'].map((q) => index.touching(q)),
        search: [['mock'], ['retry', 'cursor']].map((words) => index.search({ words, limit: 50 }).map((h) => `${h.slug} ${h.field} ${h.score}`)),
      });
      return { answers, saved: fs.readFileSync(path.join(root, '.baton', INDEX_FILE)), stats };
    } finally {
      index.close();
    }
  } finally {
    Object.assign(ROOM, saved);
  }
}

describe('a first build given room', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = tempDir('baton-roomy-');
    generateVault(root, { checkpoints: 400, projects: 6, seed: 3 });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('answers as one without it, and saves exactly the pages in use (no room in the file)', async () => {
    const plain = await build(root, 0);
    // Room for far more than it needs, and for far less: the file then grows from there.
    for (const room of [64 << 10, 16]) {
      const roomy = await build(root, room);
      assert.equal(roomy.answers, plain.answers);
      assert.deepEqual(roomy.stats, plain.stats);
      assert.equal(roomy.saved.length, plain.saved.length, `room ${room}`);
      const SQL = await loadSqlJs();
      const db = new SQL.Database(roomy.saved);
      try {
        assert.equal(db.exec('PRAGMA integrity_check')[0].values[0][0], 'ok');
        const [[pages]] = db.exec('PRAGMA page_count')[0].values;
        const [[size]] = db.exec('PRAGMA page_size')[0].values;
        assert.equal(Number(pages) * Number(size), roomy.saved.length);
      } finally {
        db.close();
      }
    }
  });

  it('records each folder as the listing it read saw it, and keeps working after: a reopened copy, a refresh', async () => {
    // Folders an hour old are trusted by their mtime (a younger one is read again: RACY_MS).
    const hourAgo = new Date(Date.now() - 3_600_000);
    const backdate = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) backdate(path.join(dir, e.name));
      fs.utimesSync(dir, hourAgo, hourAgo);
    };
    backdate(path.join(root, 'sessions'));
    await build(root, 64 << 10);
    const unchanged = await SqlIndex.open(new FsVault(root));
    try {
      const stats = await unchanged.refresh();
      assert.equal(stats.scopesScanned, 0, 'every folder was recorded with the mtime its listing saw');
    } finally {
      unchanged.close();
    }
    const scope = fs.readdirSync(path.join(root, 'sessions')).sort()[0];
    const file = path.join(root, 'sessions', scope, '20990101-000000-claude.md');
    fs.writeFileSync(file, '---\ntype: checkpoint\nagent: claude\ncheckpointed: 2099-01-01T00:00:00Z\n---\n\n## Task\n\nzebrafinch roost\n');
    const again = await SqlIndex.open(new FsVault(root));
    try {
      await again.refresh();
      assert.equal(again.search({ words: ['zebrafinch'], limit: 5 }).length, 1);
    } finally {
      again.close();
      fs.rmSync(file);
    }
  });
});
