import { strict as assert } from 'assert';
import { IndexRecords } from '../../src/adapters/index/searchRecords';
import { SCHEMA } from '../../src/adapters/index/schema';
import { loadSqlJs } from '../../src/adapters/index/sqlJs';
import { Statements } from '../../src/adapters/index/statements';
import { FsVault } from '../../src/adapters/vault/fsVault';
import { tempDir } from './support/tempVault';

describe('what search asks of the index records (real sql.js)', () => {
  async function fixture(): Promise<{ sql: Statements; records: IndexRecords }> {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run(SCHEMA);
    const sql = new Statements(db);
    const scopes = new Map<number, string>();
    for (let s = 1; s <= 30; s++) {
      scopes.set(s, `p${s}`);
      sql.run('INSERT INTO scopes(id, name, mtime) VALUES (?, ?, 0)', [s, `p${s}`]);
    }
    for (let id = 1; id <= 300; id++) {
      sql.run(
        "INSERT INTO checkpoints(id, scope, name, mtime, size, agent, machine, person, ts, task, empty, paths, failed) VALUES (?, ?, ?, 0, 0, 'codex', '', '', ?, '', 0, '', '')",
        [id, 1 + (id % 30), `n${id}`, 1000 + id],
      );
    }
    return { sql, records: new IndexRecords(new FsVault(tempDir()), sql, () => scopes) };
  }

  it("answers each record's time, and a missing one not at all", async () => {
    const { records } = await fixture();
    assert.deepEqual(
      [...records.times('checkpoint', [3, 250, 999])],
      [
        [3, 1003],
        [250, 1250],
      ],
    );
  });

  it('keeps no statement per search: a long-lived index does not grow with the hits and filters asked', async () => {
    const { sql, records } = await fixture();
    const ask = (i: number): void => {
      records.times('checkpoint', [i, i + 1, i + 7, i + 40]);
      const seen: number[] = [];
      assert.equal(
        records.eachAllowed({ words: ['x'], limit: 5, project: `p${1 + (i % 30)}` }, (_k, id) => seen.push(id)),
        true,
      );
      assert.ok(seen.length > 0);
    };
    ask(1);
    const kept = sql.kept;
    for (let i = 2; i < 200; i++) ask(i);
    assert.equal(sql.kept, kept);
  });
});
