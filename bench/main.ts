// `npm run bench`: generates (or reuses) synthetic vaults, measures every
// figure of issue 6 as a ratio taken side by side in the same run, and writes
// BENCHMARKS.md. Run through bench/run.js, which bundles this file and the CLI
// with esbuild first. Not part of `npm test`: it is about speed, not behaviour.
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Baton } from '../src/core/baton';
import type { Touch } from '../src/core/model';
import { SqlIndex, INDEX_FILE } from '../src/adapters/index/sqlIndex';
import { loadSqlJs } from '../src/adapters/index/sqlJs';
import type { SharedIndexLease } from '../src/adapters/sharedIndex';
import { FsVault } from '../src/adapters/vault/fsVault';
import { keptIndex, openBaton } from '../src/app/openBaton';
import { extraCheckpoint, generateNotesVault, generateVault, GENERATOR_VERSION, META_FILE, projectsFor, rng, type VaultMeta } from './generate';
import { referenceWhy } from './reference';
import { runInVscode } from './vscode';
import { populatedPhase, summarizePopulated } from './populated';
import { benchBlame } from './blame';
import { median, now, timed } from './stats';
import { writeReport, type Results, type SizeResult } from './report';
import { indexBytesWithoutText, searchPhase } from './search';
import { textCost } from './textCost';
import { tokenBench } from './tokens';
import { evidenceBench } from './evidence';
import { importBench } from './importHistory';

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.bench');
/** The CLI as `npm run build` makes it, built by bench/run.js into .bench/build/dev/dist/. */
const CLI = process.env.BATON_BENCH_CLI || path.join(CACHE, 'build', 'dev', 'dist', 'cli.js');

interface Options {
  sizes: number[];
  notes: number;
  out: string;
  quick: boolean;
  vscode: boolean;
  /** Only the real VS Code's time to populated views, smallest and largest size; BENCHMARKS.md is not rewritten. */
  vscodeOnly: boolean;
  /** Fresh VS Code windows per size for that figure. */
  pairs: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { sizes: [1000, 10000, 100000], notes: 100000, out: path.join(ROOT, 'BENCHMARKS.md'), quick: false, vscode: true, vscodeOnly: false, pairs: 3 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--sizes') o.sizes = argv[++i].split(',').map(Number);
    else if (a === '--notes') o.notes = Number(argv[++i]);
    else if (a === '--out') o.out = path.resolve(argv[++i]);
    else if (a === '--quick') o.quick = true;
    else if (a === '--no-vscode') o.vscode = false;
    else if (a === '--vscode-only') o.vscodeOnly = true;
    else if (a === '--pairs') o.pairs = Number(argv[++i]);
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

const log = (msg: string): void => {
  process.stderr.write(`[bench ${((now() - START) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);
};
const START = now();

// ---- vaults -----------------------------------------------------------------------

interface Manifest {
  generator: number;
  kind: 'checkpoints' | 'notes';
  size: number;
  seconds: number;
  files: number;
  bytes: number;
  projects?: number;
  scopes?: number;
  generatedAt: string;
}

const MANIFEST = '.bench-manifest.json';

function readManifest(dir: string): Manifest | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** A cached vault, generated first when missing or made by another generator version. */
function ensureVault(kind: 'checkpoints' | 'notes', size: number): { root: string; manifest: Manifest; fresh: boolean } {
  const root = path.join(CACHE, 'vaults', kind === 'checkpoints' ? `cp-${size}` : `notes-${size}`);
  const m = readManifest(root);
  if (m && m.generator === GENERATOR_VERSION && m.kind === kind && m.size === size) return { root, manifest: m, fresh: false };
  log(`generating ${kind} vault of ${size} (first run only; cached in ${path.relative(ROOT, root)})`);
  fs.rmSync(root, { recursive: true, force: true });
  const tmp = `${root}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  let manifest: Manifest;
  if (kind === 'checkpoints') {
    const g = generateVault(tmp, { checkpoints: size, projects: projectsFor(size), seed: size }, (n) => log(`  ${n} checkpoints written`));
    manifest = {
      generator: GENERATOR_VERSION,
      kind,
      size,
      seconds: g.seconds,
      files: g.files,
      bytes: g.bytes,
      projects: g.projects,
      scopes: g.scopes,
      generatedAt: new Date().toISOString(),
    };
  } else {
    const g = generateNotesVault(tmp, size);
    manifest = { generator: GENERATOR_VERSION, kind, size, seconds: g.seconds, files: 2, bytes: g.bigBytes, generatedAt: new Date().toISOString() };
  }
  fs.writeFileSync(path.join(tmp, MANIFEST), JSON.stringify(manifest, null, 2));
  fs.renameSync(tmp, root);
  log(`  generated in ${manifest.seconds.toFixed(1)} s`);
  return { root, manifest, fresh: true };
}

// ---- the I/O floor ------------------------------------------------------------------

/** Lists every checkpoint file the way the index does (project and worktree folders, checkpoint names only). */
function checkpointFiles(root: string): string[] {
  const sessions = path.join(root, 'sessions');
  const out: string[] = [];
  const subdirs = (d: string): string[] =>
    fs
      .readdirSync(d, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  for (const p of subdirs(sessions)) {
    const pd = path.join(sessions, p);
    for (const d of [
      pd,
      ...subdirs(pd)
        .filter((w) => w !== 'plans')
        .map((w) => path.join(pd, w)),
    ]) {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isFile() && /^[0-9]{8}-.*\.md$/.test(e.name)) out.push(path.join(d, e.name));
    }
  }
  return out;
}

/** The floor: the same folder walk and the same files read whole into strings, and nothing else. */
function ioFloor(root: string): { files: number; chars: number } {
  let chars = 0;
  const files = checkpointFiles(root);
  for (const f of files) chars += fs.readFileSync(f, 'utf8').length;
  return { files: files.length, chars };
}

/** A lower floor still: the same files read as bytes, not even decoded as UTF-8. */
function byteFloor(root: string): number {
  let bytes = 0;
  for (const f of checkpointFiles(root)) bytes += fs.readFileSync(f).length;
  return bytes;
}

function vaultBytes(root: string): { bytes: number; disk: number } {
  let bytes = 0;
  let disk = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.baton' || e.name.startsWith('.bench')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = fs.statSync(p);
        bytes += st.size;
        disk += st.blocks * 512;
      }
    }
  };
  walk(root);
  return { bytes, disk };
}

// ---- index helpers -------------------------------------------------------------------

/** A build from a deleted `.baton/`; `text` false: without the text index's writes, the other side of its cost. */
async function coldBuild(root: string, text = true): Promise<{ total: number; open: number; refresh: number; save: number }> {
  fs.rmSync(path.join(root, '.baton'), { recursive: true, force: true });
  const t0 = now();
  const idx = await SqlIndex.open(new FsVault(root), { search: { text } });
  const t1 = now();
  await idx.refresh();
  const t2 = now();
  await idx.save();
  const t3 = now();
  idx.close();
  return { total: t3 - t0, open: t1 - t0, refresh: t2 - t1, save: t3 - t2 };
}

/** Sets a file's or folder's mtime `secondsAgo` in the past (the index trusts a folder only once it is 2 s old). */
function backdate(p: string, secondsAgo: number): void {
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(p, t, t);
}

/** A baton as the extension builds it: one index kept open and lent out (src/vscode/vaultSession.ts). */
function extensionBaton(root: string): { baton: Baton; lease: SharedIndexLease } {
  const lease = keptIndex(root, { saveAfterMs: 3_600_000 });
  // As VaultSession does once its watcher runs: nothing changes during the questions, so
  // they skip the refresh, except the full one the lease still makes every 30 s.
  lease.followChanges();
  const baton = openBaton(root, { index: lease });
  return { baton, lease };
}

function whyQueries(root: string, n: number, seed: number): string[] {
  const meta = JSON.parse(fs.readFileSync(path.join(root, META_FILE), 'utf8')) as VaultMeta;
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = meta.projects[Math.floor(r() * meta.projects.length)];
    const f = p.files[Math.floor(r() * p.files.length)];
    const x = r();
    // As an editor asks: workspace-relative mostly, sometimes absolute or ./-prefixed.
    out.push(x < 0.6 ? f : x < 0.85 ? `/home/ana/src/${p.name}/${f}` : `./${f}`);
  }
  return out;
}

// ---- processes -----------------------------------------------------------------------

function runProcess(args: string[], input = ''): Promise<{ ms: number; code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t = now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, BATON_AGENT: '', BATON_PROJECT: '' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: now() - t, code: code ?? -1, stderr }));
    // A process that never reads its stdin (`node -e ''`, `baton note`) may be gone before it is written.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** Runs the named process kinds alternately, `n` rounds, so load drifts hit them alike. */
async function alternate(n: number, kinds: Record<string, () => Promise<{ ms: number; code: number; stderr: string }>>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const k of Object.keys(kinds)) out[k] = [];
  for (let i = 0; i < n; i++) {
    for (const [k, fn] of Object.entries(kinds)) {
      const r = await fn();
      if (r.code !== 0) throw new Error(`${k} exited ${r.code}: ${r.stderr}`);
      out[k].push(r.ms);
    }
  }
  return out;
}

// ---- the run ------------------------------------------------------------------------

async function main(): Promise<void> {
  if (process.argv.includes('--text-cost')) return textCost(process.argv.slice(2));
  if (process.argv.includes('--tokens')) return tokenBench(process.argv.slice(2));
  if (process.argv.includes('--evidence')) return evidenceBench(process.argv.slice(2));
  if (process.argv.includes('--import')) return importBench(process.argv.slice(2));
  const opts = parseArgs(process.argv.slice(2));
  const reps = (size: number): number => (opts.quick ? 1 : size >= 100000 ? 5 : size >= 10000 ? 5 : 7);
  const results: Results = {
    startedAt: new Date().toISOString(),
    machine: machine(),
    loadBefore: os.loadavg(),
    loadAfter: [],
    sizes: [],
    generation: [],
    notes: null,
    cli: null,
    hook: null,
    totalSeconds: 0,
    vscode: null,
    vsixBytes: process.env.BATON_BENCH_VSIX && fs.existsSync(process.env.BATON_BENCH_VSIX) ? fs.statSync(process.env.BATON_BENCH_VSIX).size : null,
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    search: null,
  };
  if (opts.vscodeOnly) return populatedOnly(opts);
  await loadSqlJs(); // compiled once per process; the CLI figures carry that cost, the in-process ones do not

  const vaults = opts.sizes.map((size) => ({ size, ...ensureVault('checkpoints', size) }));
  // One untimed build first: the JIT and sql.js warm up on it, not on the first measured size.
  await coldBuild(vaults[0].root);
  const notesVault = ensureVault('notes', opts.notes);
  for (const v of [...vaults, notesVault]) {
    results.generation.push({ name: path.basename(v.root), seconds: v.manifest.seconds, fresh: v.fresh, files: v.manifest.files, bytes: v.manifest.bytes });
  }

  // 1. Cold build vs the I/O floor, side by side; then index size.
  for (const v of vaults) {
    log(`cold build vs I/O floor, ${v.size} checkpoints`);
    ioFloor(v.root); // warm the page cache: both sides read warm files
    const floors: number[] = [];
    const byteFloors: number[] = [];
    const builds: { total: number; open: number; refresh: number; save: number }[] = [];
    const noText: number[] = [];
    for (let i = 0; i < reps(v.size); i++) {
      floors.push((await timed(() => ioFloor(v.root))).ms);
      noText.push((await coldBuild(v.root, false)).total);
      builds.push(await coldBuild(v.root));
      byteFloors.push((await timed(() => byteFloor(v.root))).ms);
    }
    const sizes = vaultBytes(v.root);
    const indexBytes = fs.statSync(path.join(v.root, '.baton', INDEX_FILE)).size;
    const indexBytesNoText = await indexBytesWithoutText(v.root);
    const sr: SizeResult = {
      size: v.size,
      projects: v.manifest.projects ?? 0,
      scopes: v.manifest.scopes ?? 0,
      vaultBytes: sizes.bytes,
      vaultDisk: sizes.disk,
      indexBytes,
      floor: floors,
      byteFloor: byteFloors,
      build: builds.map((b) => b.total),
      buildParts: {
        open: median(builds.map((b) => b.open)),
        refresh: median(builds.map((b) => b.refresh)),
        save: median(builds.map((b) => b.save)),
      },
      buildRatios: builds.map((b, i) => b.total / floors[i]),
      refreshOne: [],
      refreshOneCli: [],
      refreshNone: [],
      why: [],
      whyBest: [],
      whyIndex: [],
      whyIndexBest: [],
      whyIndexAll: [],
      whyCli: [],
      reference: [],
      referenceAgrees: true,
      buildNoText: noText,
      buildTextRatios: builds.map((b, i) => b.total / noText[i]),
      indexBytesNoText,
    };
    results.sizes.push(sr);
    log(`  floor ${median(floors).toFixed(0)} ms, build ${median(sr.build).toFixed(0)} ms, index ${indexBytes} B for ${sizes.bytes} B of vault`);
  }

  // 2. Refresh after one checkpoint is added, against the cold build.
  for (const v of vaults) {
    const sr = results.sizes.find((s) => s.size === v.size)!;
    log(`refresh after one added checkpoint, ${v.size}`);
    const meta = JSON.parse(fs.readFileSync(path.join(v.root, META_FILE), 'utf8')) as VaultMeta;
    const scopes = fs.readdirSync(path.join(v.root, 'sessions')).sort();
    const r = rng(v.size + 99);
    const addOne = (k: number): { file: string; dir: string } => {
      const project = scopes[Math.floor(r() * scopes.length)];
      const files = meta.projects.find((p) => p.name === project)?.files ?? [];
      const { id, text } = extraCheckpoint(v.size * 1000 + k, project, files, Date.UTC(2026, 0, 1) / 1000 + k);
      const dir = path.join(v.root, 'sessions', project);
      const file = path.join(dir, `${id}.md`);
      fs.writeFileSync(file, text, { mode: 0o600 });
      backdate(file, 10);
      backdate(dir, 10);
      return { file, dir };
    };
    const remove = (x: { file: string; dir: string }): void => {
      fs.rmSync(x.file);
      backdate(x.dir, 20);
    };
    // (a) in a process that keeps the index open (the extension): refresh() only.
    const idx = await SqlIndex.open(new FsVault(v.root));
    await idx.refresh();
    for (let i = 0; i < 5; i++) sr.refreshNone.push((await timed(() => idx.refresh())).ms);
    for (let k = 0; k < (opts.quick ? 3 : 15); k++) {
      const added = addOne(k);
      const t = await timed(() => idx.refresh());
      if (t.value.checkpointsParsed !== 1) throw new Error(`expected one parsed checkpoint, got ${JSON.stringify(t.value)}`);
      sr.refreshOne.push(t.ms);
      remove(added);
      await idx.refresh();
    }
    await idx.save(true);
    idx.close();
    // (b) as a CLI process does it: load the saved index, refresh, save (skipped: the saved copy is recent and the
    // change small, see SqlIndex.save), close. Each starts from an up-to-date saved index.
    const settle = async (): Promise<void> => {
      const i3 = await SqlIndex.open(new FsVault(v.root));
      await i3.refresh();
      await i3.save(true);
      i3.close();
    };
    const cliStyle = async (): Promise<number> => {
      const t = now();
      const i2 = await SqlIndex.open(new FsVault(v.root));
      await i2.refresh();
      await i2.save();
      i2.close();
      return now() - t;
    };
    for (let k = 0; k < (opts.quick ? 2 : 5); k++) {
      const added = addOne(100 + k);
      sr.refreshOneCli.push(await cliStyle());
      remove(added);
      await settle();
    }
  }

  // 3. "Which checkpoints touched this file": warm, every size open side by side.
  log('why: 1,000 paths per vault, warm, sizes interleaved');
  const open = await Promise.all(
    vaults.map(async (v) => {
      const ext = extensionBaton(v.root);
      await ext.baton.why('warm-up.ts', 20);
      const idx = await SqlIndex.open(new FsVault(v.root));
      await idx.refresh();
      return { v, ext, idx, queries: whyQueries(v.root, opts.quick ? 200 : 1000, v.size + 7) };
    }),
  );
  const nq = open[0].queries.length;
  for (let i = 0; i < nq; i++) {
    for (const o of open) {
      const sr = results.sizes.find((s) => s.size === o.v.size)!;
      const q = o.queries[i];
      // Each path is asked three times: the first answer is the figure; the best of
      // three is the cost of the work itself, without the scheduler's noise.
      const shots: number[] = [];
      const idxShots: number[] = [];
      for (let k = 0; k < 3; k++) {
        shots.push((await timed(() => o.ext.baton.why(q, 20))).ms);
        idxShots.push((await timed(() => o.idx.touching(q, 20))).ms);
      }
      sr.why.push(shots[0]);
      sr.whyBest.push(Math.min(...shots));
      sr.whyIndex.push(idxShots[0]);
      sr.whyIndexBest.push(Math.min(...idxShots));
    }
  }
  // The unlimited query (for reference) in a loop of its own: at 100k it allocates tens of MB, whose
  // collection would otherwise land in the figures above.
  for (let i = 0; i < nq; i++) {
    for (const o of open) {
      const sr = results.sizes.find((s) => s.size === o.v.size)!;
      sr.whyIndexAll.push((await timed(() => o.idx.touching(o.queries[i]))).ms);
    }
  }
  // The reference algorithm on a few of the same questions; its answers are checked against Baton's.
  for (const o of open) {
    const sr = results.sizes.find((s) => s.size === o.v.size)!;
    // The reference costs the same on every question (it reads everything), so one is enough at 100k (about 40 s).
    const n = opts.quick || o.v.size >= 100000 ? 1 : 3;
    log(`reference algorithm, ${o.v.size}: ${n} question(s)`);
    // Questions that have answers (a file some checkpoint touched), so the check means something.
    const asked = o.queries.filter((q) => o.idx.touching(q, 1).length > 0).slice(0, n);
    for (const q of asked) {
      const ref = await timed(() => referenceWhy(o.v.root, q));
      sr.reference.push(ref.ms);
      const ours: Touch[] = await o.ext.baton.why(q, 20);
      const theirs = ref.value.slice(0, 20);
      const same = ours.length === theirs.length && ours.every((t, j) => t.slug === theirs[j].slug && t.matched === theirs[j].matched);
      if (!same) {
        sr.referenceAgrees = false;
        log(`  MISMATCH for ${q}: baton ${ours.map((t) => t.slug).join(',')} vs reference ${theirs.map((t) => t.slug).join(',')}`);
      }
    }
  }
  for (const o of open) {
    await o.ext.lease.dispose();
    o.idx.close();
  }

  // 4. Notes: appending with 100k notes vs 10, in process and as a CLI call; `baton note` and the hook vs bare node.
  log('notes: in process');
  const big = path.join(notesVault.root, 'sessions', 'big', 'uncommitted.md');
  const small = path.join(notesVault.root, 'sessions', 'small', 'uncommitted.md');
  const sizesBefore = { big: fs.statSync(big).size, small: fs.statSync(small).size };
  try {
    const baton = openBaton(notesVault.root);
    const inBig: number[] = [];
    const inSmall: number[] = [];
    const rounds = opts.quick ? 50 : 300;
    for (let i = 0; i < 10; i++) {
      await baton.note('big', 'bench', `warm-up ${i}`);
      await baton.note('small', 'bench', `warm-up ${i}`);
    }
    for (let i = 0; i < rounds; i++) {
      inBig.push((await timed(() => baton.note('big', 'bench', `bench note ${i} on the big scope`))).ms);
      inSmall.push((await timed(() => baton.note('small', 'bench', `bench note ${i} on the small scope`))).ms);
    }
    log('notes and hooks as processes');
    const n = opts.quick ? 8 : 40;
    const vaultArg = ['--vault', notesVault.root];
    const payload = JSON.stringify({
      session_id: 'bench-session',
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm test -- price', description: 'Run the price tests' },
      tool_response: { stdout: 'ok 1 - annualPrice\n'.repeat(200), stderr: '', interrupted: false },
      cwd: '/home/ana/src/kestrel',
    });
    // An edit: one `edited:` note appended per call, a new file each time (the same file again would be answered by the dedup, not the append).
    const editWork = path.join(CACHE, 'hook-edit-work');
    fs.mkdirSync(editWork, { recursive: true });
    fs.writeFileSync(path.join(editWork, '.baton-project'), 'small\n');
    let edits = 0;
    const editPayload = (): string =>
      JSON.stringify({
        session_id: 'bench-session',
        hook_event_name: 'PostToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: path.join(editWork, 'src', `file-${edits++}.ts`), old_string: 'a', new_string: 'b' },
        tool_response: { filePath: 'src/file.ts', success: true },
        cwd: editWork,
      });
    const procs = await alternate(n, {
      bare: () => runProcess(['-e', '']),
      noteSmall: () => runProcess([CLI, ...vaultArg, 'note', '--project', 'small', '--agent', 'bench', 'a note from a hook']),
      noteBig: () => runProcess([CLI, ...vaultArg, 'note', '--project', 'big', '--agent', 'bench', 'a note from a hook']),
      hook: () => runProcess([CLI, ...vaultArg, 'hook', 'claude-code', 'post-tool-use'], payload),
      hookEdit: () => runProcess([CLI, ...vaultArg, 'hook', 'claude-code', 'post-tool-use'], editPayload()),
    });
    results.notes = { inBig, inSmall, cliBig: procs.noteBig, cliSmall: procs.noteSmall, bigNotes: opts.notes };
    results.cli = { bare: procs.bare, note: procs.noteSmall };
    results.hook = { bare: procs.bare, hook: procs.hook, edit: procs.hookEdit };
  } finally {
    // Leave the cached notes vault as it was.
    fs.truncateSync(big, sizesBefore.big);
    fs.truncateSync(small, sizesBefore.small);
  }

  // 5. `baton why` as a process, per size (loads the saved index: sql.js and the database file).
  for (const v of vaults) {
    const sr = results.sizes.find((s) => s.size === v.size)!;
    const q = whyQueries(v.root, 1, v.size + 11)[0];
    const n = opts.quick ? 3 : 10;
    const r = await alternate(n, { why: () => runProcess([CLI, '--vault', v.root, 'why', q, '--limit', '20']) });
    sr.whyCli = r.why;
  }

  // 5b. Issue 14: search in process and as a process, `baton index` with search included.
  results.search = await searchPhase(vaults, {
    ensureVault: (size) => ensureVault('checkpoints', size),
    coldBuild,
    extensionBaton,
    runProcess: (args) => runProcess(args),
    ioFloor,
    cli: CLI,
    now,
    log,
    quick: opts.quick,
  });

  // 6. The real VS Code: activation with the largest vault and with an empty one; CodeLens and hover.
  if (opts.vscode) {
    const large = vaults[vaults.length - 1];
    results.vscode = await vscodeFigures(large.root, opts.quick);
    results.populated = await populatedPhase({ root: ROOT, cache: CACHE, small: vaults[0], large, pairs: opts.quick ? 1 : opts.pairs, log });
  }

  // 7. Agent blame (issue 16): against `git blame` alone on the same file.
  results.blame = await benchBlame(CACHE, opts.quick, log);

  results.loadAfter = os.loadavg();
  results.totalSeconds = (now() - START) / 1000;
  writeReport(opts.out, results);
  // Every sample, for digging into a figure (gitignored with the rest of .bench/).
  fs.writeFileSync(path.join(CACHE, 'results.json'), JSON.stringify(results));
  log(`wrote ${path.relative(ROOT, opts.out)} in ${results.totalSeconds.toFixed(0)} s`);
}

/** `--vscode-only`: the populated views figure alone, printed and kept in .bench/populated.json. */
async function populatedOnly(opts: Options): Promise<void> {
  const loadBefore = os.loadavg();
  const [small, large] = [Math.min(...opts.sizes), Math.max(...opts.sizes)].map((size) => ({ size, ...ensureVault('checkpoints', size) }));
  // A reload finds the index saved: build it where no earlier run left one.
  await loadSqlJs();
  for (const v of [small, large]) if (!fs.existsSync(path.join(v.root, '.baton', INDEX_FILE))) await coldBuild(v.root);
  const figures = await populatedPhase({ root: ROOT, cache: CACHE, small, large, pairs: opts.pairs, log });
  const loadAfter = os.loadavg();
  fs.writeFileSync(path.join(CACHE, 'populated.json'), JSON.stringify({ loadBefore, loadAfter, ...figures }));
  const s = summarizePopulated(figures);
  const load = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' / ');
  log(`load average (1/5/15 min) at start ${load(loadBefore)}, at end ${load(loadAfter)}`);
  if (!s) return log(`not measured: ${figures.skipped || figures.runs.find((r) => r.error)?.error}`);
  log(
    `activation to populated views, ${large.size} / ${small.size}, real VS Code ${s.version}: ${s.ratio.toFixed(2)}× (${s.largeBest.toFixed(0)} ms vs ${s.smallBest.toFixed(0)} ms, quickest of ${opts.pairs} each); median of ${s.pairs} pairs ${s.pairedRatio.toFixed(2)}×`,
  );
}

async function vscodeFigures(vaultRoot: string, quick: boolean): Promise<Results['vscode']> {
  const entry = path.join(CACHE, 'build', 'vscode', 'perf.js');
  const extensionPath = path.join(CACHE, 'build', 'dev');
  if (!fs.existsSync(path.join(ROOT, 'scripts', 'vscode-test', 'harness.js')) || !fs.existsSync(entry)) {
    return { skipped: 'the offline VS Code harness (scripts/vscode-test/harness.js) or the built entry is missing', runs: [] };
  }
  // A workspace that is one of the vault's busiest projects (its folder name is the project), holding files its
  // checkpoints touched. A Go, Python or Rust one: VS Code has no built-in hover or CodeLens for those, so the
  // timings are Baton's (a TypeScript file would also time the TypeScript server's hover).
  const meta = JSON.parse(fs.readFileSync(path.join(vaultRoot, META_FILE), 'utf8')) as VaultMeta;
  const project = meta.projects.find((p) => p.files.some((f) => /\.(go|py|rs)$/.test(f))) ?? meta.projects[0];
  const ws = path.join(CACHE, 'vscode', 'ws', project.name);
  fs.rmSync(path.dirname(ws), { recursive: true, force: true });
  const r = rng(17);
  const files = [...new Set(Array.from({ length: quick ? 20 : 60 }, () => project.files[Math.floor(r() * project.files.length)]))];
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
    fs.writeFileSync(path.join(ws, f), `// ${f}\n\nexport const x = 1;\n`);
  }
  const empty = path.join(CACHE, 'vaults', 'empty');
  fs.rmSync(empty, { recursive: true, force: true });
  fs.mkdirSync(empty, { recursive: true });
  const runs = [];
  for (const vaultDir of quick ? [empty, vaultRoot] : [empty, vaultRoot, empty, vaultRoot]) {
    log(`VS Code: ${vaultDir === empty ? 'empty vault' : path.basename(vaultRoot)}`);
    const run = await runInVscode({ root: ROOT, extensionPath, entry, vaultDir, workspace: ws, files, rounds: quick ? 2 : 3, timeoutMs: 240_000 });
    if (run.error) log(`  failed: ${run.error}`);
    runs.push(run);
  }
  return { skipped: '', runs, files: files.length, project: project.name };
}

function machine(): Results['machine'] {
  const sh = (cmd: string, args: string[]): string => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8' }).trimEnd();
    } catch {
      return 'n/a';
    }
  };
  return {
    nproc: sh('nproc', []),
    free: sh('free', ['-h']),
    cpu: os.cpus()[0]?.model ?? 'n/a',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
