// Synthetic vaults for the benchmark, written with Baton's own renderer so the
// files are exactly what Baton (and Logos) would leave on disk. Deterministic:
// the same size and seed always give the same vault, so a cached vault under
// `.bench/` is reused across runs and numbers from two runs compare.
//
// Shape (per the issue: "a person who has used agents for a year"): hundreds of
// projects, a third of them with linked worktrees, checkpoints spread over a
// year and skewed towards a few busy projects; each project has its own file
// tree (with the names every project shares: README.md, package.json,
// src/index.ts...), and each checkpoint lists Files (written every which way
// agents write them) and git's `touched` list, decisions, dead ends,
// multi-paragraph State, sometimes folded notes and Baton's own keys.
import * as fs from 'fs';
import * as path from 'path';
import type { Checkpoint } from '../src/core/model';
import { emptyGit } from '../src/core/model';
import { stamp } from '../src/core/time';
import { renderCheckpoint } from '../src/adapters/markdown/checkpointFile';
import { notesHeader, renderNoteLine } from '../src/adapters/markdown/notesFile';

/** Bump when the generator's output changes: cached vaults of another version are regenerated. */
export const GENERATOR_VERSION = 3;

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

const WORDS = (
  'cache index parser token session refresh retry backoff queue worker scheduler handler router middleware schema migration ' +
  'billing invoice price toggle annual monthly account tenant user profile avatar upload storage bucket signed url expiry ' +
  'auth login logout password reset email template render layout grid column table pagination cursor offset filter sort ' +
  'search query ranking embedding vector store snapshot replay event stream consumer producer partition offset commit ' +
  'lock mutex race deadlock timeout context cancel channel goroutine thread pool connection socket proxy gateway tls cert ' +
  'config flag env secret vault rotate key hash salt bcrypt jwt claim scope role permission policy audit log metric trace ' +
  'span exporter dashboard alert threshold latency p99 throughput benchmark profile allocation heap gc leak regression ' +
  'test fixture mock stub fake snapshot golden flaky ci pipeline build bundle minify tree shake import export module ' +
  'component state hook effect memo reducer store selector action dispatch form validation error boundary fallback toast ' +
  'modal dialog focus keyboard accessibility aria contrast theme dark mode locale i18n plural date timezone utc parse ' +
  'format serialize deserialize json yaml csv markdown frontmatter heading bullet section watcher debounce throttle poll ' +
  'webhook signature payload retry idempotency dedupe outbox saga transaction isolation rollback savepoint vacuum index'
).split(/\s+/);

const VERBS = ['fix', 'add', 'move', 'split', 'rename', 'wire', 'cache', 'retry', 'guard', 'measure', 'drop', 'port', 'test', 'document', 'refactor'];
const AGENTS = ['claude', 'claude', 'claude', 'codex', 'codex', 'cursor', 'cursor', 'amp', 'gemini', 'aider', 'copilot'];
const PROJECT_WORDS = [
  'kestrel',
  'osprey',
  'heron',
  'falcon',
  'wren',
  'finch',
  'lark',
  'swift',
  'tern',
  'plover',
  'ibis',
  'crane',
  'egret',
  'merlin',
  'harrier',
  'kite',
  'robin',
  'thrush',
  'pipit',
  'dunlin',
  'curlew',
  'godwit',
  'avocet',
  'stilt',
  'gannet',
  'petrel',
  'auk',
  'puffin',
  'shag',
  'grebe',
  'coot',
  'rail',
  'bittern',
  'stork',
  'oriole',
  'vireo',
  'tanager',
  'bunting',
  'siskin',
  'linnet',
];
const SUFFIXES = ['api', 'web', 'cli', 'core', 'infra', 'docs', 'mobile', 'sdk', 'worker', 'admin', 'billing', 'search', 'ml', 'ops', 'site'];
const WORKTREES = ['feature-annual', 'fix-login', 'perf', 'refactor-store', 'spike', 'release-2', 'hotfix', 'migrate-db', 'ui-polish', 'review'];

interface Lang {
  ext: string;
  roots: string[];
  shared: string[];
}
const LANGS: Lang[] = [
  {
    ext: 'ts',
    roots: ['src', 'src/lib', 'src/components', 'src/server', 'test', 'src/api', 'src/hooks'],
    shared: ['package.json', 'tsconfig.json', 'src/index.ts', 'README.md', 'CHANGELOG.md', '.github/workflows/ci.yml'],
  },
  {
    ext: 'go',
    roots: ['internal', 'internal/store', 'cmd/server', 'pkg/api', 'internal/memory', 'internal/http'],
    shared: ['go.mod', 'go.sum', 'main.go', 'README.md', 'Makefile', '.github/workflows/ci.yml'],
  },
  {
    ext: 'py',
    roots: ['app', 'app/models', 'app/api', 'tests', 'app/services', 'scripts'],
    shared: ['pyproject.toml', 'README.md', 'app/__init__.py', 'app/main.py', 'Dockerfile', 'tests/conftest.py'],
  },
  {
    ext: 'rs',
    roots: ['src', 'src/bin', 'src/store', 'tests', 'benches', 'src/net'],
    shared: ['Cargo.toml', 'Cargo.lock', 'src/lib.rs', 'src/main.rs', 'README.md', 'CHANGELOG.md'],
  },
];

interface Project {
  name: string;
  scopes: string[];
  files: string[];
  /** Relative weight of work in this project. */
  weight: number;
}

export interface VaultSpec {
  checkpoints: number;
  projects: number;
  seed: number;
  /** Changes each checkpoint before it is written (bench/evidence.ts adds claims' evidence); draws nothing from the vault's random stream, so the rest stays as without it. */
  decorate?: (cp: Checkpoint, n: number) => void;
}

/** How many projects a vault of this many checkpoints has: hundreds at a year's use. */
export function projectsFor(checkpoints: number): number {
  return Math.max(20, Math.min(400, Math.round((4 * Math.sqrt(checkpoints)) / 1.25)));
}

function makeProjects(r: Rand, count: number): Project[] {
  const used = new Set<string>();
  const out: Project[] = [];
  for (let i = 0; out.length < count; i++) {
    let name = pick(r, PROJECT_WORDS);
    if (r() < 0.8) name += `-${pick(r, SUFFIXES)}`;
    if (used.has(name)) name += `-${i}`;
    used.add(name);
    const scopes = [name];
    if (r() < 0.33) {
      const n = int(r, 1, 4);
      const wts = new Set<string>();
      while (wts.size < n) wts.add(pick(r, WORKTREES));
      for (const wt of wts) scopes.push(`${name}/${wt}`);
    }
    const lang = pick(r, LANGS);
    const files = new Set<string>(lang.shared.filter(() => r() < 0.85));
    const n = int(r, 40, 300);
    while (files.size < n) {
      const root = pick(r, lang.roots);
      const sub = r() < 0.4 ? `/${pick(r, WORDS)}` : '';
      const stem = r() < 0.5 ? pick(r, WORDS) : `${pick(r, WORDS)}_${pick(r, WORDS)}`;
      const file = r() < 0.12 ? `${root}${sub}/index.${lang.ext}` : `${root}${sub}/${stem}.${lang.ext}`;
      files.add(lang.ext === 'py' || lang.ext === 'rs' || lang.ext === 'go' ? file : file.replace(/_/g, '-'));
    }
    // Zipf-like: a few projects take most of the work.
    out.push({ name, scopes, files: [...files], weight: 1 / Math.pow(out.length + 1, 0.8) });
  }
  return out;
}

const sentence = (r: Rand, min = 6, max = 16): string => {
  const n = int(r, min, max);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(pick(r, WORDS));
  const s = words.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
};
const paragraph = (r: Rand, min = 2, max = 5): string => Array.from({ length: int(r, min, max) }, () => sentence(r)).join(' ');
const phrase = (r: Rand): string => `${pick(r, VERBS)} the ${pick(r, WORDS)} ${pick(r, WORDS)}`;

/** A path the way agents write it in `## Files`: mostly plain, sometimes `./x`, `` `x` ``, `x (new)`. */
function spelled(r: Rand, file: string): string {
  const x = r();
  if (x < 0.7) return file;
  if (x < 0.8) return `./${file}`;
  if (x < 0.9) return `\`${file}\``;
  return `${file} (${pick(r, ['new', 'rewritten', 'tests', 'moved'])})`;
}

const hex = (r: Rand, n: number): string => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join('');

function sample<T>(r: Rand, list: readonly T[], n: number): T[] {
  const out = new Set<T>();
  const want = Math.min(n, list.length);
  while (out.size < want) out.add(pick(r, list));
  return [...out];
}

/** One realistic checkpoint (fields only; the caller names it). */
function makeCheckpoint(r: Rand, project: Project, scope: string, agent: string, ts: number, follows: string, hot: string[]): Checkpoint {
  // Work clusters: most files touched in a checkpoint come from the project's "hot" set of the moment.
  const fromProject = (n: number): string[] => sample(r, r() < 0.7 ? hot : project.files, n);
  const files = fromProject(int(r, 0, 12)).map((f) => spelled(r, f));
  const touched = r() < 0.8 ? fromProject(int(r, 0, 20)) : [];
  const verb = phrase(r);
  const task = r() < 0.1 ? '' : `${verb[0].toUpperCase()}${verb.slice(1)} in ${pick(r, project.files)}`;
  const folded = r() < 0.3 ? Array.from({ length: int(r, 1, 6) }, () => `- ${sentence(r, 4, 12)}`) : [];
  const state = Array.from({ length: int(r, 1, 4) }, () => paragraph(r)).join('\n\n') + (folded.length ? `\n\nRecorded during the session:\n${folded.join('\n')}` : '');
  const extra: Record<string, unknown> = {};
  if (r() < 0.5) extra.agent_session = `${hex(r, 8)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 12)}`;
  if (folded.length) extra.folded = [`${stamp(ts - int(r, 600, 20000))}-${agent}`];
  const worktree = scope.includes('/') ? `/home/ana/src/${scope.replace('/', '-')}` : '';
  return {
    task,
    intent: r() < 0.6 ? sentence(r) : '',
    state,
    decisions: Array.from({ length: int(r, 0, 4) }, () => `${phrase(r)}: ${sentence(r, 4, 12)}`),
    failed: Array.from({ length: int(r, 0, 3) }, () => `${phrase(r)} — ${sentence(r, 4, 12)}`),
    verified: Array.from({ length: int(r, 0, 3) }, () => `${phrase(r)} — npm test -- ${pick(r, WORDS)}`),
    blockers: r() < 0.15 ? [sentence(r)] : [],
    commands: Array.from(
      { length: int(r, 0, 4) },
      () => pick(r, ['npm test', 'go test ./...', 'pytest -q', 'cargo test', 'make lint', 'git diff --stat']) + (r() < 0.5 ? ` -- ${pick(r, WORDS)}` : ''),
    ),
    questions: r() < 0.3 ? [`should we ${phrase(r)}?`] : [],
    files,
    next: r() < 0.9 ? `${phrase(r)} and ${phrase(r)}` : '',
    session: '',
    project: scope,
    agent,
    handoffTo: r() < 0.08 ? pick(r, AGENTS) : '',
    autoClosed: false,
    git: {
      ...emptyGit(),
      branch: r() < 0.3 ? 'main' : `${pick(r, ['feature', 'fix', 'chore'])}/${pick(r, WORDS)}-${pick(r, WORDS)}`,
      commit: hex(r, 7),
      subject: `${pick(r, ['feat', 'fix', 'chore', 'refactor', 'test'])}: ${phrase(r)}`,
      dirty: touched.length,
      files: touched,
      worktree,
    },
    ts,
    follows,
    extra,
    slug: '',
  };
}

/** Start of the year of work every vault covers. */
export const YEAR_START = Date.UTC(2025, 0, 1) / 1000;
const YEAR = 365 * 86400;

/** Beside `sessions/` in a generated vault: the projects and their files (Baton ignores it). */
export const META_FILE = '.bench-meta.json';

export interface VaultMeta {
  projects: { name: string; files: string[] }[];
}

export interface GeneratedVault {
  root: string;
  checkpoints: number;
  projects: number;
  scopes: number;
  files: number;
  bytes: number;
  seconds: number;
}

/**
 * Writes a vault of `spec.checkpoints` checkpoints under `root` (which must not
 * exist). Files are written plainly (not atomically): this is a fixture.
 */
export function generateVault(root: string, spec: VaultSpec, progress?: (done: number) => void): GeneratedVault {
  const t0 = process.hrtime.bigint();
  const r = rng(spec.seed);
  const projects = makeProjects(r, spec.projects);
  const allScopes = projects.flatMap((p) => p.scopes.map((s) => ({ p, s })));
  const total = projects.reduce((a, p) => a + p.weight, 0);
  // Checkpoints per scope, proportional to the project weight; the main scope takes most.
  const counts = new Map<string, number>();
  let assigned = 0;
  for (const { p, s } of allScopes) {
    const perProject = (spec.checkpoints * p.weight) / total;
    const worktrees = p.scopes.length - 1;
    // The main scope takes 60% of a project's work when it has worktrees; the worktrees share the rest.
    const share = worktrees === 0 ? 1 : s === p.name ? 0.6 : 0.4 / worktrees;
    const n = Math.max(1, Math.round(perProject * share));
    counts.set(s, n);
    assigned += n;
  }
  // Trim or pad to the exact total, round-robin over the busiest scopes.
  const order = [...counts.keys()].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0));
  for (let i = 0; assigned !== spec.checkpoints; i = (i + 1) % order.length) {
    const s = order[i];
    const n = counts.get(s) ?? 0;
    if (assigned > spec.checkpoints && n > 1) {
      counts.set(s, n - 1);
      assigned--;
    } else if (assigned < spec.checkpoints) {
      counts.set(s, n + 1);
      assigned++;
    }
  }
  fs.mkdirSync(path.join(root, 'sessions'), { recursive: true, mode: 0o700 });
  let written = 0;
  let bytes = 0;
  for (const { p, s } of allScopes) {
    const n = counts.get(s) ?? 0;
    const dir = path.join(root, 'sessions', ...s.split('/'));
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Times across the year, sorted, so `follows` chains read naturally.
    const times = Array.from({ length: n }, () => YEAR_START + Math.floor(r() * YEAR)).sort((a, b) => a - b);
    let previous = '';
    let hot = sample(r, p.files, 12);
    const names = new Set<string>();
    for (const ts of times) {
      if (r() < 0.15) hot = sample(r, p.files, 12);
      const agent = pick(r, AGENTS);
      let id = `${stamp(ts)}-${agent}`;
      for (let step = 1; names.has(id); step++) id = `${stamp(ts + step)}-${agent}`;
      names.add(id);
      const cp = makeCheckpoint(r, p, s, agent, ts, previous, hot);
      spec.decorate?.(cp, written);
      const text = renderCheckpoint({ ...cp, session: id, slug: `sessions/${s}/${id}` });
      fs.writeFileSync(path.join(dir, `${id}.md`), text, { mode: 0o600 });
      bytes += Buffer.byteLength(text);
      previous = id;
      written++;
      if (progress && written % 5000 === 0) progress(written);
    }
  }
  // What a person might open: every project's file tree (touched or not), for choosing `why` queries.
  fs.writeFileSync(path.join(root, META_FILE), JSON.stringify({ projects: projects.map((p) => ({ name: p.name, files: p.files })) }));
  return {
    root,
    checkpoints: written,
    projects: projects.length,
    scopes: allScopes.length,
    files: written,
    bytes,
    seconds: Number(process.hrtime.bigint() - t0) / 1e9,
  };
}

/** A vault with two scopes: `big` holding `bigCount` open notes, `small` holding 10. */
export function generateNotesVault(root: string, bigCount: number, seed = 7): { seconds: number; bigBytes: number } {
  const t0 = process.hrtime.bigint();
  const r = rng(seed);
  let bigBytes = 0;
  for (const [scope, count] of [
    ['big', bigCount],
    ['small', 10],
  ] as const) {
    const dir = path.join(root, 'sessions', scope);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const parts: string[] = [notesHeader(scope)];
    // Many agents' sessions over the last days, oldest first as appended.
    let ts = YEAR_START + YEAR - 3 * 86400;
    for (let i = 0; i < count; i++) {
      ts += int(r, 0, 3);
      parts.push(renderNoteLine({ text: sentence(r, 5, 20), agent: pick(r, AGENTS), ts }));
    }
    const text = parts.join('');
    fs.writeFileSync(path.join(dir, 'uncommitted.md'), text, { mode: 0o600 });
    if (scope === 'big') bigBytes = Buffer.byteLength(text);
  }
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, bigBytes };
}

/**
 * One more realistic checkpoint for `scope` of a generated vault (the refresh
 * figure adds it, measures, then removes it). Its id sorts after every
 * generated one.
 */
export function extraCheckpoint(seed: number, scope: string, files: string[], ts: number): { id: string; text: string } {
  const r = rng(seed);
  const project: Project = { name: scope.split('/')[0], scopes: [scope], files: files.length ? files : ['README.md'], weight: 1 };
  const id = `${stamp(ts)}-bench`;
  const cp = makeCheckpoint(r, project, scope, 'bench', ts, '', sample(r, project.files, 12));
  return { id, text: renderCheckpoint({ ...cp, session: id, slug: `sessions/${scope}/${id}` }) };
}

/** `n` rendered checkpoints of the generator's shape, in memory (for tests that pin the index to the real parser). */
export function sampleCheckpoints(n: number, seed: number): { id: string; scope: string; text: string }[] {
  const r = rng(seed);
  const projects = makeProjects(r, 8);
  const out: { id: string; scope: string; text: string }[] = [];
  for (let i = 0; i < n; i++) {
    const p = pick(r, projects);
    const scope = pick(r, p.scopes);
    const agent = pick(r, AGENTS);
    const ts = YEAR_START + Math.floor(r() * YEAR);
    const id = `${stamp(ts)}-${agent}`;
    const cp = makeCheckpoint(r, p, scope, agent, ts, i > 0 ? out[i - 1].id : '', sample(r, p.files, 12));
    out.push({ id, scope, text: renderCheckpoint({ ...cp, session: id, slug: `sessions/${scope}/${id}` }) });
  }
  return out;
}
