// `npm run bench -- --text-cost [--sizes 100000] [--reps 3] [--queries 200] [--only build|search] [--slowest 10]`:
// only the three figures the text index answers for (issue 24), without the
// rest of the bench: its share of a cold build (paired builds with and without
// it), its size beside the vault's, and search p99 in process. Prints JSON on
// stdout; writes nothing into BENCHMARKS.md (the full `npm run bench` does).
// Uses the same cached vaults, cold build and questions as bench/main.ts.
// `--only search` asks the questions of the index already built (one cold
// build first when there is none), so a change to a query is measured in
// seconds, not minutes; `--only build` skips the questions. `--slowest N`
// adds the N slowest questions (best of three) and their hits.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { INDEX_FILE, SqlIndex } from '../src/adapters/index/sqlIndex';
import { loadSqlJs } from '../src/adapters/index/sqlJs';
import { FsVault } from '../src/adapters/vault/fsVault';
import { keptIndex, openBaton } from '../src/app/openBaton';
import { generateVault, GENERATOR_VERSION, projectsFor } from './generate';
import { indexBytesWithoutText, searchInProcess, searchQueries } from './search';
import { median, now, percentile } from './stats';

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.bench');
const MANIFEST = '.bench-manifest.json';

const log = (msg: string): void => void process.stderr.write(`[text-cost] ${msg}\n`);

/** The vault bench/main.ts caches for this size, generated first when missing (the same manifest, so either reuses it). */
function ensureVault(size: number): string {
  const root = path.join(CACHE, 'vaults', `cp-${size}`);
  try {
    const m = JSON.parse(fs.readFileSync(path.join(root, MANIFEST), 'utf8')) as { generator: number; kind: string; size: number };
    if (m.generator === GENERATOR_VERSION && m.kind === 'checkpoints' && m.size === size) return root;
  } catch {
    // not generated yet
  }
  log(`generating ${size} checkpoints`);
  fs.rmSync(root, { recursive: true, force: true });
  const tmp = `${root}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const g = generateVault(tmp, { checkpoints: size, projects: projectsFor(size), seed: size });
  const manifest = {
    generator: GENERATOR_VERSION,
    kind: 'checkpoints',
    size,
    seconds: g.seconds,
    files: g.files,
    bytes: g.bytes,
    projects: g.projects,
    scopes: g.scopes,
    generatedAt: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(tmp, MANIFEST), JSON.stringify(manifest, null, 2));
  fs.renameSync(tmp, root);
  return root;
}

/** CPU time of this process, every thread (the workers') included, in ms: beside wall time, what a shared machine's load does not stretch. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function coldBuild(root: string, text: boolean, cpu: number[]): Promise<number> {
  fs.rmSync(path.join(root, '.baton'), { recursive: true, force: true });
  const c0 = cpuMs();
  const t0 = now();
  const idx = await SqlIndex.open(new FsVault(root), { search: { text } });
  await idx.refresh();
  await idx.save();
  idx.close();
  const ms = now() - t0;
  cpu.push(cpuMs() - c0);
  return ms;
}

function vaultBytes(root: string): number {
  let bytes = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.baton' || e.name.startsWith('.bench')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else bytes += fs.statSync(p).size;
    }
  };
  walk(root);
  return bytes;
}

/** Search in process, warm, through the extension's kept-open index (bench/search.ts). */
async function searchFigures(root: string, size: number, n: number, slowest: number): Promise<Record<string, unknown>> {
  const lease = keptIndex(root, { saveAfterMs: 3_600_000 });
  lease.followChanges();
  const baton = openBaton(root, { index: lease });
  const queries = searchQueries(root, n, size + 5);
  const asked = await searchInProcess([{ size, baton, queries, warmUp: searchQueries(root, 5, size + 6) }], now);
  const s = asked.get(size)!;
  const slow = [...s.best.keys()].sort((a, b) => s.best[b] - s.best[a]).slice(0, slowest);
  const slowestAsked: { query: string; ms: number; hits: number }[] = [];
  for (const i of slow) slowestAsked.push({ query: queries[i], ms: s.best[i], hits: (await baton.search({ query: queries[i], limit: 20 })).length });
  await lease.dispose();
  return {
    searchP99: percentile(s.first, 99),
    searchP50: percentile(s.first, 50),
    searchBestP99: percentile(s.best, 99),
    searchBestP50: percentile(s.best, 50),
    hits: s.hits,
    ...(slowest > 0 ? { slowest: slowestAsked } : {}),
  };
}

export async function textCost(argv: string[]): Promise<void> {
  let sizes = [100000];
  let reps = 3;
  let queries = 200;
  let only: 'build' | 'search' | undefined;
  let slowest = 0;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--sizes') sizes = argv[++i].split(',').map(Number);
    else if (argv[i] === '--reps') reps = Number(argv[++i]);
    else if (argv[i] === '--queries') queries = Number(argv[++i]);
    else if (argv[i] === '--slowest') slowest = Number(argv[++i]);
    else if (argv[i] === '--only' && (argv[i + 1] === 'build' || argv[i + 1] === 'search')) only = argv[++i] as 'build' | 'search';
    else if (argv[i] !== '--text-cost') throw new Error(`unknown option ${argv[i]}`);
  }
  await loadSqlJs();
  const out: unknown[] = [];
  for (const size of sizes) {
    const root = ensureVault(size);
    if (only === 'search') {
      if (!fs.existsSync(path.join(root, '.baton', INDEX_FILE))) await coldBuild(root, true, []);
      out.push({ size, ...(await searchFigures(root, size, queries, slowest)) });
      continue;
    }
    await coldBuild(root, true, []); // warm-up: the JIT and sql.js, not the first measured build
    const withText: number[] = [];
    const without: number[] = [];
    const cpuWith: number[] = [];
    const cpuWithout: number[] = [];
    for (let i = 0; i < reps; i++) {
      without.push(await coldBuild(root, false, cpuWithout));
      withText.push(await coldBuild(root, true, cpuWith));
      log(`${size}: ${without[i].toFixed(0)} ms without, ${withText[i].toFixed(0)} ms with`);
    }
    const indexBytes = fs.statSync(path.join(root, '.baton', INDEX_FILE)).size;
    const ratios = withText.map((w, i) => w / without[i]);
    out.push({
      size,
      reps,
      buildWithText: withText,
      buildWithout: without,
      textShare: median(ratios) - 1,
      /** The best build of each side: the least disturbed by the machine's other work. */
      textShareBest: Math.min(...withText) / Math.min(...without) - 1,
      cpuWith,
      cpuWithout,
      textShareCpu: median(cpuWith) / median(cpuWithout) - 1,
      indexBytes,
      indexBytesNoText: await indexBytesWithoutText(root),
      vaultBytes: vaultBytes(root),
      indexPerVault: indexBytes / vaultBytes(root),
      ...(only === 'build' ? {} : await searchFigures(root, size, queries, slowest)),
    });
  }
  process.stdout.write(JSON.stringify({ at: new Date().toISOString(), load: os.loadavg(), cpus: os.cpus().length, results: out }, null, 2) + '\n');
}
