// `npm run bench -- --import [--sessions 1000] [--mb 1] [--reps 3]`: issue
// 27's figures. A generated history of `sessions` past sessions of about `mb`
// MB each (1,000 × 1 MB: about 1 GB), a quarter of each agent, every one the
// real CLI's own transcript (test/fixtures/: Claude Code 2.1.328, Codex
// 0.169.0, Copilot CLI 1.0.102, Gemini CLI 0.61.0) under ids and projects of
// its own, made long by the record a long session is mostly made of, the
// agent's own tool output record. Measured side by side, pair by pair in one
// run: the floor, reading every line of every file once and JSON.parse-ing it
// (a child process of its own), and `baton import --json` (the built CLI) into
// an empty vault; the ratio's median, and the import's peak RSS. Goals: ≤ 3×
// the floor, RSS ≤ 300 MB. Prints JSON on stdout; BENCHMARKS.md is written by hand.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { rng } from './generate';
import { median, now } from './stats';

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.bench');
const CLI = process.env.BATON_BENCH_CLI || path.join(CACHE, 'build', 'dev', 'dist', 'cli.js');
const FIX = path.join(ROOT, 'test', 'fixtures');
const GENERATOR = 3;

const log = (msg: string): void => void process.stderr.write(`[import] ${msg}\n`);

interface Options {
  sessions: number;
  mb: number;
  reps: number;
}

function options(argv: string[]): Options {
  const o: Options = { sessions: 1000, mb: 1, reps: 3 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--sessions') o.sessions = Number(argv[++i]);
    else if (argv[i] === '--mb') o.mb = Number(argv[++i]);
    else if (argv[i] === '--reps') o.reps = Number(argv[++i]);
  }
  return o;
}

type Agent = 'claude-code' | 'codex' | 'copilot' | 'gemini';
const AGENTS: Agent[] = ['claude-code', 'codex', 'copilot', 'gemini'];

/** Each agent's real transcript, the ids and project folder it names (replaced per session), and its tool output record. */
const SOURCES: Record<Agent, { file: string; ids: string[]; project: string; pad: (n: number, text: string) => string }> = {
  'claude-code': {
    file: 'transcripts/claude-code/new-session.jsonl',
    ids: ['666ed8a4-510b-47c4-a504-440842d36a88'],
    project: '/WORLD/claude',
    pad: (n, text) =>
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_pad_${n}`, content: text }] },
        uuid: `pad-${n}`,
        timestamp: '2026-11-02T10:00:00.000Z',
      }),
  },
  codex: {
    file: 'transcripts/codex/codex-0.169.0-session1.jsonl',
    ids: ['01a23427-b882-7e73-a525-bc20fcc1edb1'],
    project: '/ROOT/codex-cart',
    pad: (n, text) =>
      JSON.stringify({ timestamp: '2026-11-02T10:00:00.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: `call_pad_${n}`, output: text } }),
  },
  copilot: {
    file: 'transcripts/copilot/session1.events.jsonl',
    ids: ['c4fdfb21-77a4-46b2-9123-87134eeae22b'],
    project: '/WORLD/shop',
    pad: (n, text) =>
      JSON.stringify({
        type: 'tool.execution_complete',
        data: { toolCallId: `call_pad_${n}`, success: true, result: { content: text } },
        id: `pad-${n}`,
        timestamp: '2026-11-02T10:00:00.000Z',
      }),
  },
  gemini: {
    file: 'import/gemini/tmp/gemini/chats/session-2026-12-02T17-09-04ee248d.jsonl',
    ids: ['04ee248d-4445-40f2-a795-9538818bce09', '04ee248d'],
    project: '/WORLD/gemini',
    pad: (n, text) =>
      JSON.stringify({
        id: `pad-${n}`,
        timestamp: '2026-11-02T10:00:00.000Z',
        type: 'gemini',
        content: '',
        toolCalls: [
          {
            id: `read_file_pad_${n}`,
            name: 'read_file',
            args: { file_path: 'src/cart.js' },
            result: [{ functionResponse: { id: `read_file_pad_${n}`, name: 'read_file', response: { output: text } } }],
            status: 'success',
          },
        ],
      }),
  },
};

const WORDS = 'total cart round cents price items sum reduce module export function return tests pass fail error line file const value'.split(' ');

/** About `bytes` of source-like text, different per session. */
function filler(bytes: number, next: () => number): string {
  const out: string[] = [];
  let n = 0;
  while (n < bytes) {
    const line = Array.from({ length: 8 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
    out.push(line);
    n += line.length + 1;
  }
  return out.join('\n');
}

/** Where session `i` goes under `home`, and its text. */
function session(i: number, mb: number): { rel: string; text: string } {
  const agent = AGENTS[i % AGENTS.length];
  const src = SOURCES[agent];
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const project = `p${i % 40}`;
  let text = fs.readFileSync(path.join(FIX, src.file), 'utf8').split(src.project).join(`/WORLD/${project}`);
  for (const old of src.ids) text = text.split(old).join(old.length === 8 ? id.slice(-8) : id);
  // Its own hours: session i ended i hours before the fixture's (a history's sessions do not end in the same second).
  text = text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, (iso) => new Date(Date.parse(iso) - i * 3600_000).toISOString());
  const lines = text.split('\n').filter(Boolean);
  const next = rng(i + 1);
  const chunk = filler(8 * 1024, next);
  const pads: string[] = [];
  let size = text.length;
  for (let n = 0; size < mb * 1024 * 1024; n++) {
    const p = src.pad(n, chunk);
    pads.push(p);
    size += p.length + 1;
  }
  // The long middle of a session: after its first request, before its last answer.
  const body = [...lines.slice(0, 3), ...pads, ...lines.slice(3)].join('\n') + '\n';
  const rel =
    agent === 'claude-code'
      ? `.claude/projects/-WORLD-${project}/${id}.jsonl`
      : agent === 'codex'
        ? `.codex/sessions/2026/11/02/rollout-2026-11-02T10-00-00-${id}.jsonl`
        : agent === 'copilot'
          ? `.copilot/session-state/${id}/events.jsonl`
          : `.gemini/tmp/${project}/chats/session-2026-11-02T10-00-${id.slice(-8)}.jsonl`;
  return { rel, text: body };
}

/** The cached history for these options, generated first when missing. */
function ensureHistory(o: Options): { home: string; files: string[]; bytes: number } {
  const home = path.join(CACHE, 'import', `h-${o.sessions}-${o.mb}`);
  const manifest = path.join(home, 'manifest.json');
  try {
    const m = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { generator: number; files: string[]; bytes: number };
    if (m.generator === GENERATOR) return { home, files: m.files.map((f) => path.join(home, f)), bytes: m.bytes };
  } catch {
    // not generated yet
  }
  log(`generating ${o.sessions} sessions of about ${o.mb} MB`);
  fs.rmSync(home, { recursive: true, force: true });
  const files: string[] = [];
  let bytes = 0;
  // Last written two hours ago and before: past sessions, none still being written.
  const base = Date.now() / 1000 - 7200;
  for (let i = 0; i < o.sessions; i++) {
    const s = session(i, o.mb);
    const f = path.join(home, s.rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, s.text);
    fs.utimesSync(f, base - i, base - i);
    files.push(s.rel);
    bytes += Buffer.byteLength(s.text);
  }
  for (let p = 0; p < 40; p++) {
    const dir = path.join(home, '.gemini', 'tmp', `p${p}`);
    if (fs.existsSync(dir)) fs.writeFileSync(path.join(dir, '.project_root'), `/WORLD/p${p}\n`);
  }
  fs.writeFileSync(manifest, JSON.stringify({ generator: GENERATOR, files, bytes }));
  return { home, files: files.map((f) => path.join(home, f)), bytes };
}

/** The floor: every line of every file read once and JSON.parse-d, in a child process of its own (as the import runs in one). */
const FLOOR = `
const fs = require('fs');
let lines = 0;
const buf = Buffer.alloc(1 << 20);
for (const f of JSON.parse(fs.readFileSync(process.argv[1], 'utf8'))) {
  const fd = fs.openSync(f, 'r');
  let rest = '';
  for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) {
    const parts = (rest + buf.toString('utf8', 0, n)).split('\\n');
    rest = parts.pop();
    for (const l of parts) if (l) { JSON.parse(l); lines++; }
  }
  if (rest) { JSON.parse(rest); lines++; }
  fs.closeSync(fd);
}
process.stdout.write(String(lines));
`;

/** Peak RSS of the process it is preloaded into, written at exit to the file BATON_BENCH_RSS names. */
const RSS_AT_EXIT = `process.on('exit', () => require('fs').writeFileSync(process.env.BATON_BENCH_RSS, String(process.resourceUsage().maxRSS * 1024)));`;

export function importBench(argv: string[]): void {
  const o = options(argv);
  const h = ensureHistory(o);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-bench-import-'));
  const list = path.join(tmp, 'files.json');
  fs.writeFileSync(list, JSON.stringify(h.files));
  const preload = path.join(tmp, 'rss.js');
  fs.writeFileSync(preload, RSS_AT_EXIT);
  const rssFile = path.join(tmp, 'rss');
  const floor: number[] = [];
  const imports: number[] = [];
  const ratios: number[] = [];
  const rss: number[] = [];
  const floorRss: number[] = [];
  let report: { imported: number; skipped: unknown[] } = { imported: 0, skipped: [] };
  try {
    for (let rep = 0; rep < o.reps; rep++) {
      let t = now();
      const f = spawnSync(process.execPath, ['-r', preload, '-e', FLOOR, list], { env: { ...process.env, BATON_BENCH_RSS: rssFile }, encoding: 'utf8', maxBuffer: 1 << 20 });
      const floorMs = now() - t;
      if (f.status !== 0) throw new Error(`the floor failed: ${f.stderr}`);
      floorRss.push(Number(fs.readFileSync(rssFile, 'utf8')));
      const vault = path.join(tmp, `vault-${rep}`);
      t = now();
      const r = spawnSync(process.execPath, ['-r', preload, CLI, 'import', '--json'], {
        env: { PATH: process.env.PATH, HOME: h.home, BATON_VAULT: vault, BATON_BENCH_RSS: rssFile },
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      });
      const importMs = now() - t;
      if (r.status !== 0) throw new Error(`baton import failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
      report = JSON.parse(r.stdout) as typeof report;
      rss.push(Number(fs.readFileSync(rssFile, 'utf8')));
      floor.push(floorMs);
      imports.push(importMs);
      ratios.push(importMs / floorMs);
      log(
        `rep ${rep + 1}: floor ${(floorMs / 1000).toFixed(1)} s (${f.stdout} lines), import ${(importMs / 1000).toFixed(1)} s (${report.imported} imported, ${report.skipped.length} skipped), ×${(importMs / floorMs).toFixed(2)}, RSS ${(rss[rss.length - 1] / 1048576).toFixed(0)} MB`,
      );
      fs.rmSync(vault, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const out = {
    sessions: o.sessions,
    bytes: h.bytes,
    reps: o.reps,
    floorMs: median(floor),
    importMs: median(imports),
    ratio: median(ratios),
    ratios,
    importPeakRssBytes: Math.max(...rss),
    floorPeakRssBytes: Math.max(...floorRss),
    imported: report.imported,
    skipped: report.skipped.length,
    goals: { ratio: 3, rssBytes: 300 * 1024 * 1024 },
  };
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
}
