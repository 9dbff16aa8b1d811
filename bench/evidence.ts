// `npm run bench -- --evidence --no-vsix [--size 100000] [--queries 1000] [--claims 1000] [--files 200] [--rounds 30] [--only verify|hover]`:
// issue 26's two figures, each a ratio taken side by side in one run. Prints
// JSON on stdout (and a summary on stderr); writes nothing into BENCHMARKS.md.
//
// (a) The hover with claims: on a vault of 100k checkpoints most of which
//     carry Verified claims with their evidence, the hover's path in process
//     for a file of the busiest project (the index's `why`, the detailed
//     checkpoints read, buildHover: what vscode/editor/hoverDetails.ts does
//     for a file not asked before), without and then with each shown
//     checkpoint's claims judged against the working tree (app/evidence.ts
//     claimChecks, as vscode/claimChecks.ts asks it: one stat a covered file,
//     its hash cached per mtime) and rendered in the hover (core/claimText.ts). Both sides for every path, in
//     alternating order; p99 of each against a frame (16.7 ms).
// (b) `baton verify` on 1,000 claims against hashing their files once: a
//     checkpoint whose 1,000 claims cover 200 files (the most Baton records,
//     app/evidence.ts MAX_FILES), verified after every file was saved again
//     (so no hash is answered from the cache, as in a new `baton verify`
//     process), beside reading and hashing the same files once; in process,
//     and as processes (`baton verify --json` beside `node` hashing them).
import { spawn } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync } from 'child_process';
import type { Checkpoint } from '../src/core/model';
import { EVIDENCE_KEY, evidenceRecord } from '../src/core/evidence';
import type { Run } from '../src/core/runs';
import { buildHover, DETAILED, type HoverEntry } from '../src/core/hoverText';
import { normalizeTouchPath } from '../src/core/touching';
import { loadSqlJs } from '../src/adapters/index/sqlJs';
import { SqlIndex } from '../src/adapters/index/sqlIndex';
import { FsVault } from '../src/adapters/vault/fsVault';
import { KeptVault } from '../src/app/keptVault';
import { claimChecks, filesHashed } from '../src/app/evidence';
import { commitCheckpoint } from '../src/app/commit';
import { openBaton } from '../src/app/openBaton';
import { verifyClaims } from '../src/app/verify';
import { generateVault, GENERATOR_VERSION, META_FILE, projectsFor, rng, type VaultMeta } from './generate';
import { median, now, percentile } from './stats';

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.bench');
const CLI = process.env.BATON_BENCH_CLI || path.join(CACHE, 'build', 'dev', 'dist', 'cli.js');
const MANIFEST = '.bench-manifest.json';
/** Bump when the claims written into the vault change: a cached claims vault of another version is generated again. */
const CLAIMS_VERSION = 2;
/** The hover lists this many touches (vscode/editor/hoverDetails.ts ENTRIES); the first DETAILED are read whole. */
const ENTRIES = 10;
const FRAME_MS = 1000 / 60;

const log = (msg: string): void => void process.stderr.write(`[evidence] ${msg}\n`);

/** What a generated project's file holds in the bench's working tree: a few KB of source, the same for the same name. */
const contentOf = (file: string): string => `// ${file}\n\n${Array.from({ length: 60 }, (_, i) => `export const value${i} = ${JSON.stringify(file)}.length + ${i};`).join('\n')}\n`;
const hashOf = (text: string | Buffer): string => `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

/**
 * Claims' evidence as Baton writes it, on every checkpoint with Verified
 * items: the covered files (its Files) hashed as the bench's working tree
 * holds them, except the first file of every fourth such checkpoint (those
 * claims read stale); the third claim of a checkpoint unbacked.
 */
function withClaims(cp: Checkpoint, n: number): void {
  if (!cp.verified.length) return;
  const covered = [...new Set(cp.files.map(normalizeTouchPath).filter(Boolean))].sort();
  const files = Object.fromEntries(covered.map((f, i) => [f, n % 4 === 0 && i === 0 ? 'sha256:0000000000000000' : hashOf(contentOf(f))]));
  const runs = new Map<string, Run>();
  const linked = cp.verified.map((claim, i) => {
    if (i === 2) return { claim, run: null };
    const command = claim.slice(claim.lastIndexOf(' — ') + 3);
    if (!runs.has(command)) runs.set(command, passed(command, cp.ts - 60, cp.git.commit));
    return { claim, run: runs.get(command) ?? null };
  });
  cp.extra[EVIDENCE_KEY] = evidenceRecord(linked, files, cp.git.commit, () => []);
}

/** A passing run as the hooks record one. */
const passed = (command: string, ts: number, head: string): Run => ({ command, status: 'passed', exit: 0, ts, agent: 'bench', head, dirty: false });

function claimsVault(size: number): string {
  const root = path.join(CACHE, 'vaults', `cp-${size}-claims`);
  try {
    const m = JSON.parse(fs.readFileSync(path.join(root, MANIFEST), 'utf8')) as { generator: number; claims: number; size: number };
    if (m.generator === GENERATOR_VERSION && m.claims === CLAIMS_VERSION && m.size === size) return root;
  } catch {
    // not generated yet
  }
  log(`generating ${size} checkpoints with claims (first run only; cached in ${path.relative(ROOT, root)})`);
  fs.rmSync(root, { recursive: true, force: true });
  const tmp = `${root}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const g = generateVault(tmp, { checkpoints: size, projects: projectsFor(size), seed: size, decorate: withClaims }, (k) => k % 20000 === 0 && log(`  ${k} written`));
  fs.writeFileSync(path.join(tmp, MANIFEST), JSON.stringify({ generator: GENERATOR_VERSION, claims: CLAIMS_VERSION, size, seconds: g.seconds, bytes: g.bytes }));
  fs.renameSync(tmp, root);
  log(`  generated in ${g.seconds.toFixed(0)} s`);
  return root;
}

const gitInit = (dir: string): void => void execFileSync('git', ['init', '-q'], { cwd: dir, env: { ...process.env, GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' } });

/** A project's working tree: every file of the project, as withClaims hashed it. */
function workspace(project: VaultMeta['projects'][number]): string {
  const ws = path.join(CACHE, 'evidence', 'ws', project.name);
  fs.rmSync(path.dirname(ws), { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  gitInit(ws);
  for (const f of project.files) {
    fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
    fs.writeFileSync(path.join(ws, f), contentOf(f));
  }
  return ws;
}

interface Side {
  ms: number[];
}
const summary = (s: Side): { p50: number; p99: number; max: number } => ({ p50: percentile(s.ms, 50), p99: percentile(s.ms, 99), max: Math.max(...s.ms) });

async function hoverFigure(size: number, queries: number): Promise<Record<string, unknown>> {
  const root = claimsVault(size);
  await loadSqlJs();
  if (!fs.existsSync(path.join(root, '.baton'))) {
    log('building its index (first run only)');
    const idx = await SqlIndex.open(new FsVault(root));
    await idx.refresh();
    await idx.save(true);
    idx.close();
  }
  const meta = JSON.parse(fs.readFileSync(path.join(root, META_FILE), 'utf8')) as VaultMeta;
  // The busiest project (the generator weighs its projects Zipf-like, in order): the most checkpoints a file of it shows.
  const project = meta.projects[0];
  const ws = workspace(project);
  const kept = new KeptVault(root, { onWrite: () => undefined, onError: () => undefined });
  kept.followChanges();
  const r = rng(size + 26);
  const asked = Array.from({ length: queries }, () => project.files[Math.floor(r() * project.files.length)]);
  let judged = 0;
  let lines = 0;
  const hover = async (q: string, claims: boolean): Promise<number> => {
    const t0 = now();
    const touches = await kept.baton.why(q, 200);
    const shown = touches.slice(0, ENTRIES);
    const cps = await Promise.all(shown.map((t, i) => (i < DETAILED ? kept.checkpoint(t.slug) : Promise.resolve(null))));
    const entries: HoverEntry[] = shown.map((touch, i) => {
      const cp = cps[i];
      // As vscode/claimChecks.ts: judged against the workspace folder that is the checkpoint's project, else not at all.
      const checks = claims && cp && cp.project === project.name ? claimChecks(cp, ws) : [];
      judged += checks.length;
      return { touch, checkpoint: cp, changedSince: false, ...(checks.length ? { claims: checks, rerun: false } : {}) };
    });
    const blocks = buildHover({ entries, total: touches.length, now: Math.floor(Date.now() / 1000), file: q, here: '' });
    if (claims) lines += blocks.filter((b) => b.kind === 'markup' && /fresh|stale|unbacked/.test(b.value)).length;
    return now() - t0;
  };
  // Warm-up: the JIT, the index's statements; a few paths only, so most first asks are measured.
  for (const q of asked.slice(0, 20)) {
    await hover(q, false);
    await hover(q, true);
  }
  const hashedBefore = filesHashed();
  const without: Side = { ms: [] };
  const withC: Side = { ms: [] };
  // Each path asked three times a side, as bench/main.ts asks `why`: the first ask is the figure (a file hovered
  // for the first time: its covered files hashed); the best of three is the work without the scheduler's noise.
  const bestWithout: Side = { ms: [] };
  const bestWith: Side = { ms: [] };
  for (let i = 0; i < asked.length; i++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let k = 0; k < 3; k++) {
      if ((i + k) % 2 === 0) {
        a.push(await hover(asked[i], false));
        b.push(await hover(asked[i], true));
      } else {
        b.push(await hover(asked[i], true));
        a.push(await hover(asked[i], false));
      }
    }
    without.ms.push(a[0]);
    withC.ms.push(b[0]);
    bestWithout.ms.push(Math.min(...a));
    bestWith.ms.push(Math.min(...b));
  }
  await kept.close();
  const a = summary(without);
  const b = summary(withC);
  const ratios = withC.ms.map((x, i) => x / without.ms[i]);
  const best = { without: summary(bestWithout), with: summary(bestWith) };
  return {
    size,
    project: project.name,
    projectFiles: project.files.length,
    queries,
    claimsJudged: judged,
    claimLines: lines,
    filesHashedDuring: filesHashed() - hashedBefore,
    without: a,
    with: b,
    p99Ratio: b.p99 / a.p99,
    medianRatio: median(ratios),
    withinFrame: b.p99 < FRAME_MS,
    bestOfThree: { ...best, p99Ratio: best.with.p99 / best.without.p99, withinFrame: best.with.p99 < FRAME_MS },
  };
}

function run(args: string[], cwd: string): Promise<{ ms: number; code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t = now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, BATON_AGENT: '', BATON_PROJECT: '' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: now() - t, code: code ?? -1, stderr }));
  });
}

async function verifyFigure(claims: number, files: number, rounds: number): Promise<Record<string, unknown>> {
  const dir = path.join(CACHE, 'evidence', 'verify');
  fs.rmSync(dir, { recursive: true, force: true });
  const repo = path.join(dir, 'ledger');
  const vault = path.join(dir, 'vault');
  fs.mkdirSync(repo, { recursive: true });
  gitInit(repo);
  const r = rng(1000);
  const names = Array.from({ length: files }, (_, i) => `src/${['api', 'store', 'billing', 'auth'][i % 4]}/module${i}.ts`);
  let bytes = 0;
  for (const f of names) {
    // 2-16 KB of source each.
    const text = Array.from({ length: 40 + Math.floor(r() * 300) }, (_, i) => `export const v${i} = ${Math.floor(r() * 1e9)}; // ${f}`).join('\n') + '\n';
    fs.mkdirSync(path.dirname(path.join(repo, f)), { recursive: true });
    fs.writeFileSync(path.join(repo, f), text);
    bytes += Buffer.byteLength(text);
  }
  const hashes = Object.fromEntries(names.map((f) => [f, hashOf(fs.readFileSync(path.join(repo, f)))]));
  const verified = Array.from({ length: claims }, (_, i) => `case ${i} holds — npm test -- case${i % 50}`);
  // Fifty commands, each run once, back the thousand claims: the record Baton writes for them (core/evidence.ts).
  const ran = Math.floor(Date.now() / 1000) - 60;
  const runs = Array.from({ length: 50 }, (_, i) => passed(`npm test -- case${i}`, ran, 'abc1234'));
  const evidence = evidenceRecord(
    verified.map((claim, i) => ({ claim, run: runs[i % 50] })),
    hashes,
    'abc1234',
    () => [],
  );
  const baton = openBaton(vault);
  await commitCheckpoint(baton, { scope: 'ledger', agent: 'bench', fields: { task: 'a thousand claims', verified, files: names }, extra: { [EVIDENCE_KEY]: evidence } });
  const abs = names.map((f) => path.join(repo, f));
  let stamp = Math.floor(Date.now() / 1000);
  // Every file saved again (its mtime moved): no hash is the cache's, as in a new process.
  const resave = (): void => {
    stamp += 1;
    for (const f of abs) fs.utimesSync(f, stamp, stamp);
  };
  const hashOnce = (): number => {
    const t0 = now();
    for (const f of abs) {
      fs.statSync(f);
      hashOf(fs.readFileSync(f));
    }
    return now() - t0;
  };
  const verifyOnce = async (): Promise<number> => {
    resave();
    const t0 = now();
    const rows = await verifyClaims(baton, 'ledger', repo);
    const ms = now() - t0;
    if (rows.length !== claims || rows.some((x) => x.state !== 'fresh'))
      throw new Error(`verify judged ${rows.length} claims, ${rows.filter((x) => x.state !== 'fresh').length} not fresh`);
    return ms;
  };
  await verifyOnce();
  hashOnce();
  const floor: number[] = [];
  const inProcess: number[] = [];
  const hashedBefore = filesHashed();
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      floor.push(hashOnce());
      inProcess.push(await verifyOnce());
    } else {
      inProcess.push(await verifyOnce());
      floor.push(hashOnce());
    }
  }
  const hashedPerVerify = (filesHashed() - hashedBefore) / rounds;
  // As processes: `baton verify --json` beside a node that hashes the same files once.
  const script = path.join(dir, 'hashOnce.js');
  fs.writeFileSync(
    script,
    `const fs=require('fs'),c=require('crypto');for(const f of ${JSON.stringify(abs)}){fs.statSync(f);c.createHash('sha256').update(fs.readFileSync(f)).digest('hex').slice(0,16);}\n`,
  );
  const procFloor: number[] = [];
  const procVerify: number[] = [];
  const procRounds = Math.max(5, Math.round(rounds / 2));
  for (let i = 0; i < procRounds; i++) {
    const a = await run([script], repo);
    const b = await run([CLI, '--vault', vault, 'verify', '--json'], repo);
    if (a.code !== 0 || b.code !== 0) throw new Error(`process failed: ${a.stderr}${b.stderr}`);
    procFloor.push(a.ms);
    procVerify.push(b.ms);
  }
  return {
    claims,
    files,
    bytes,
    rounds,
    hashedPerVerify,
    hashOnce: { median: median(floor), best: Math.min(...floor) },
    verify: { median: median(inProcess), best: Math.min(...inProcess) },
    ratio: median(inProcess.map((x, i) => x / floor[i])),
    ratioBest: Math.min(...inProcess) / Math.min(...floor),
    processes: { rounds: procRounds, hashOnce: median(procFloor), verify: median(procVerify), ratio: median(procVerify.map((x, i) => x / procFloor[i])) },
  };
}

export async function evidenceBench(argv: string[]): Promise<void> {
  let size = 100000;
  let queries = 1000;
  let claims = 1000;
  let files = 200;
  let rounds = 30;
  /** `verify` or `hover`: that figure alone. */
  let only = '';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--size') size = Number(argv[++i]);
    else if (argv[i] === '--queries') queries = Number(argv[++i]);
    else if (argv[i] === '--claims') claims = Number(argv[++i]);
    else if (argv[i] === '--files') files = Number(argv[++i]);
    else if (argv[i] === '--rounds') rounds = Number(argv[++i]);
    else if (argv[i] === '--only') only = argv[++i];
    else if (argv[i] !== '--evidence') throw new Error(`unknown option ${argv[i]}`);
  }
  const loadBefore = os.loadavg();
  const verify = only === 'hover' ? null : await verifyFigure(claims, files, rounds);
  log(`verify: ${JSON.stringify(verify)}`);
  const hover = only === 'verify' ? null : await hoverFigure(size, queries);
  log(`hover: ${JSON.stringify(hover)}`);
  process.stdout.write(
    JSON.stringify(
      { at: new Date().toISOString(), command: `npm run bench -- ${argv.join(' ')} --no-vsix`, cpus: os.cpus().length, loadBefore, loadAfter: os.loadavg(), hover, verify },
      null,
      2,
    ) + '\n',
  );
}
