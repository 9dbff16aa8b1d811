// The search figures of issue 14: full-text search in process (warm, the
// extension's kept-open index) and as a CLI call, the index with and without
// its text index, and a cold build without the text index's writes
// (SqlIndex.open's `search: { text: false }`, src/adapters/search/textIndex.ts)
// beside the real one.
import * as fs from 'fs';
import * as path from 'path';
import type { Baton } from '../src/core/baton';
import { INDEX_FILE } from '../src/adapters/index/sqlIndex';
import { loadSqlJs } from '../src/adapters/index/sqlJs';
import type { SharedIndexLease } from '../src/adapters/sharedIndex';
import { rng } from './generate';
import type { SearchResults } from './report';

/** Questions as an agent asks them: two or three words of a recorded dead end or decision, sometimes one. */
export function searchQueries(root: string, n: number, seed: number): string[] {
  const r = rng(seed);
  const sessions = path.join(root, 'sessions');
  const projects = fs.readdirSync(sessions).sort();
  const out: string[] = [];
  while (out.length < n) {
    const dir = path.join(sessions, projects[Math.floor(r() * projects.length)]);
    const files = fs.readdirSync(dir).filter((f) => /^\d{8}-.*\.md$/.test(f));
    if (files.length === 0) continue;
    const text = fs.readFileSync(path.join(dir, files[Math.floor(r() * files.length)]), 'utf8');
    const items = text.split('\n').filter((l) => l.startsWith('- ') && !l.includes('/') && !l.includes('npm test'));
    if (items.length === 0) continue;
    const words = (items[Math.floor(r() * items.length)].match(/[a-z]{4,}/gi) ?? []).map((w) => w.toLowerCase());
    if (words.length < 3) continue;
    const count = 1 + Math.floor(r() * 3);
    const at = Math.floor(r() * (words.length - count + 1));
    out.push(words.slice(at, at + count).join(' '));
  }
  return out;
}

/** Each question asked once through every size's kept-open Baton in turn; per size, the times in ms. */
export async function searchInProcess(
  batons: { size: number; baton: Baton; queries: string[]; warmUp: string[] }[],
  now: () => number,
): Promise<Map<number, { first: number[]; best: number[]; hits: number }>> {
  const out = new Map(batons.map((b) => [b.size, { first: [] as number[], best: [] as number[], hits: 0 }]));
  // Warm: the extension's index has answered before. A few questions of another seed, so the first
  // measured ones do not carry the JIT's first compile and the first read of the lengths (docLengths.ts).
  for (const b of batons) for (const q of b.warmUp) await b.baton.search({ query: q, limit: 20 });
  const n = batons[0]?.queries.length ?? 0;
  for (let i = 0; i < n; i++) {
    for (const b of batons) {
      const shots: number[] = [];
      let hits = 0;
      for (let k = 0; k < 3; k++) {
        const t = now();
        hits = (await b.baton.search({ query: b.queries[i], limit: 20 })).length;
        shots.push(now() - t);
      }
      const r = out.get(b.size)!;
      r.first.push(shots[0]);
      r.best.push(Math.min(...shots));
      r.hits += hits;
    }
  }
  return out;
}

/** The saved index's size without its text index: a copy with its tables dropped and vacuumed. */
export async function indexBytesWithoutText(root: string): Promise<number> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(fs.readFileSync(path.join(root, '.baton', INDEX_FILE)));
  try {
    db.run('DROP TABLE terms');
    db.run('DROP TABLE text_dead');
    db.run('DROP TABLE text_lengths');
    db.run('VACUUM');
    return db.export().length;
  } finally {
    db.close();
  }
}

/** What the search phase borrows from main.ts. */
export interface SearchPhaseDeps {
  ensureVault(size: number): { root: string };
  coldBuild(root: string): Promise<{ total: number }>;
  extensionBaton(root: string): { baton: Baton; lease: SharedIndexLease };
  runProcess(args: string[]): Promise<{ ms: number; code: number; stderr: string }>;
  ioFloor(root: string): unknown;
  cli: string;
  now(): number;
  log(s: string): void;
  quick: boolean;
}

/**
 * Search in process at every size (interleaved), `baton search` as a process
 * at 20k and at 200 (alternating), and `baton index` from a deleted `.baton/`
 * at 20k against reading its files.
 */
export async function searchPhase(vaults: { size: number; root: string }[], d: SearchPhaseDeps): Promise<SearchResults> {
  d.log('search: questions per vault, warm, sizes interleaved');
  const open = vaults.map((v) => ({
    size: v.size,
    ...d.extensionBaton(v.root),
    queries: searchQueries(v.root, d.quick ? 40 : 200, v.size + 5),
    warmUp: searchQueries(v.root, 5, v.size + 6),
  }));
  const inProcess = await searchInProcess(open, d.now);
  for (const o of open) await o.lease.dispose();

  d.log('search and index as processes: 20k and 200');
  const small = d.ensureVault(200);
  const mid = d.ensureVault(20000);
  for (const v of [small, mid]) await d.coldBuild(v.root);
  const ask = (root: string, q: string): Promise<{ ms: number; code: number; stderr: string }> =>
    d.runProcess([d.cli, '--vault', root, 'search', ...q.split(' '), '--limit', '20', '--json']);
  const qSmall = searchQueries(small.root, 1, 3)[0];
  const qMid = searchQueries(mid.root, 1, 3)[0];
  const rounds = d.quick ? 3 : 10;
  const cliSmall: number[] = [];
  const cliMid: number[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const [out, root, q] of [
      [cliSmall, small.root, qSmall],
      [cliMid, mid.root, qMid],
    ] as const) {
      const r = await ask(root, q);
      if (r.code !== 0) throw new Error(`baton search exited ${r.code}: ${r.stderr}`);
      out.push(r.ms);
    }
  }
  const indexCli: number[] = [];
  const floor: number[] = [];
  d.ioFloor(mid.root);
  for (let i = 0; i < (d.quick ? 1 : 3); i++) {
    const t = d.now();
    d.ioFloor(mid.root);
    floor.push(d.now() - t);
    fs.rmSync(path.join(mid.root, '.baton'), { recursive: true, force: true });
    const r = await d.runProcess([d.cli, '--vault', mid.root, 'index']);
    if (r.code !== 0) throw new Error(`baton index exited ${r.code}: ${r.stderr}`);
    indexCli.push(r.ms);
  }
  return {
    inProcess: [...inProcess].map(([size, r]) => ({ size, first: r.first, best: r.best, hits: r.hits, queries: r.first.length })),
    cli: { small: cliSmall, mid: cliMid, smallSize: 200, midSize: 20000 },
    indexCli: { ms: indexCli, floor, size: 20000 },
  };
}
