// Agent blame (issue 16): a 5,000-line file in a repository of 2,000 commits,
// 1,000 checkpoints of old Baton (no `commits` key, so every answer walks the
// history), measured side by side with `git blame` alone on the same file.
// The repository is made with `git fast-import` (seconds, not minutes) and
// cached in .bench/ beside the vaults.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { AgentBlame } from '../src/app/blame';
import { openBaton } from '../src/app/openBaton';
import { rangeAt } from '../src/core/agentBlame';
import { annotationText } from '../src/core/lineBlameText';
import { emptyFields, emptyGit, type Checkpoint } from '../src/core/model';
import { stamp } from '../src/core/time';
import { renderCheckpoint } from '../src/adapters/markdown/checkpointFile';
import { runGit } from '../src/adapters/git/blame';
import { median, now, percentile } from './stats';

export interface BlameFigures {
  commits: number;
  checkpoints: number;
  lines: number;
  attributedRanges: number;
  distinctCommits: number;
  gitBlame: number[];
  firstBlame: number[];
  warmBlame: number[];
  cursor: number[];
}

const GENERATOR = 1;
const COMMITS = 2000;
const CHECKPOINTS = 1000;
const LINES = 5000;
const T0 = 1_760_000_000;
const AGENTS = ['claude', 'cursor', 'codex', 'copilot'];
const FILE = 'src/big.ts';
const SCOPE = 'blamebench';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const at = (i: number): number => T0 + i * 600;

/** The repository and its vault, made once per generator version. */
function ensure(cache: string, log: (m: string) => void): { repo: string; vault: string } {
  const dir = path.join(cache, `blame-v${GENERATOR}`);
  const repo = path.join(dir, SCOPE);
  const vault = path.join(dir, 'vault');
  if (fs.existsSync(path.join(dir, 'done'))) return { repo, vault };
  log(`generating the agent-blame repository (${COMMITS} commits, a ${LINES}-line file) and ${CHECKPOINTS} checkpoints`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(repo, { recursive: true });
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const git = (args: string[], input?: string): string => {
    const r = spawnSync('git', args, { cwd: repo, env, input, encoding: 'utf8', maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`git ${args[0]}: ${r.stderr}`);
    return r.stdout;
  };
  git(['init', '-q', '-b', 'main']);
  const r = rng(16);
  const lines = Array.from({ length: LINES }, (_, k) => `export const line${k} = ${k}; // v0`);
  const chunks: string[] = [];
  const data = (s: string): string => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let i = 0; i < COMMITS; i++) {
    const who = `Bench <bench@example.invalid> ${at(i)} +0000`;
    chunks.push(`commit refs/heads/main\nmark :${i + 1}\nauthor ${who}\ncommitter ${who}\n${data(`commit ${i}`)}`);
    // One commit in four rewrites 10 lines of the big file; the rest touch small files.
    if (i === 0 || i % 4 === 0) {
      if (i > 0) for (let n = 0; n < 10; n++) lines[Math.floor(r() * LINES)] = `export const line${n}_${i} = ${i}; // v${i}`;
      chunks.push(`M 100644 inline ${FILE}\n${data(`${lines.join('\n')}\n`)}`);
    } else {
      chunks.push(`M 100644 inline src/small${i % 50}.ts\n${data(`export const v = ${i};\n`)}`);
    }
  }
  const marks = path.join(dir, 'marks');
  git(['fast-import', '--quiet', `--export-marks=${marks}`], chunks.join(''));
  git(['reset', '-q', '--hard', 'main']);
  const shas = new Map<number, string>();
  for (const line of fs.readFileSync(marks, 'utf8').split('\n')) {
    const m = /^:(\d+) ([0-9a-f]{40})$/.exec(line);
    if (m) shas.set(Number(m[1]) - 1, m[2].slice(0, 7));
  }
  // Checkpoint j covers commits 2j+1 and 2j+2 (commit 0 is the history before any session).
  fs.mkdirSync(path.join(vault, 'sessions', SCOPE), { recursive: true });
  let previous = '';
  for (let j = 0; j < CHECKPOINTS; j++) {
    const agent = AGENTS[j % AGENTS.length];
    const start = at(2 * j + 1) - 60;
    const ts = at(2 * j + 2) + 60;
    const id = `${stamp(ts)}-${agent}`;
    const cp: Checkpoint = {
      ...emptyFields(),
      task: `change ${j}: tidy the constants`,
      failed: ['a code generator: the constants are hand-tuned'],
      session: id,
      project: SCOPE,
      agent,
      handoffTo: '',
      autoClosed: false,
      git: { ...emptyGit(), branch: 'main', commit: shas.get(2 * j + 2) ?? '' },
      ts,
      follows: previous,
      extra: { folded: [`${stamp(start)}-${agent}`] },
      slug: `sessions/${SCOPE}/${id}`,
    };
    fs.writeFileSync(path.join(vault, 'sessions', SCOPE, `${id}.md`), renderCheckpoint(cp));
    previous = id;
  }
  fs.writeFileSync(path.join(dir, 'done'), '');
  return { repo, vault };
}

/** Every figure, the kinds interleaved round by round so load from other work hits them alike. */
export async function benchBlame(cache: string, quick: boolean, log: (m: string) => void): Promise<BlameFigures> {
  const { repo, vault } = ensure(cache, log);
  const baton = openBaton(vault);
  const file = path.join(repo, FILE);
  const rounds = quick ? 2 : 7;
  const f: BlameFigures = {
    commits: COMMITS,
    checkpoints: CHECKPOINTS,
    lines: LINES,
    attributedRanges: 0,
    distinctCommits: 0,
    gitBlame: [],
    firstBlame: [],
    warmBlame: [],
    cursor: [],
  };
  const warm = new AgentBlame(() => baton);
  await warm.blame(file); // untimed: the JIT warms on it
  let last = await warm.blame(file);
  for (let i = 0; i < rounds; i++) {
    let t = now();
    await runGit(repo, ['blame', '--root', '--incremental', '--encoding=utf-8', '--', FILE]);
    f.gitBlame.push(now() - t);
    t = now();
    await new AgentBlame(() => baton).blame(file);
    f.firstBlame.push(now() - t);
    t = now();
    last = await warm.blame(file);
    f.warmBlame.push(now() - t);
  }
  f.attributedRanges = last.ranges.length;
  f.distinctCommits = new Set(last.ranges.map((r) => r.commit)).size;
  // The cursor's path in the editor: the range of a line from the cached answer, and the annotation's words.
  const r = rng(7);
  const clock = Math.floor(Date.now() / 1000);
  for (let i = 0; i < (quick ? 2000 : 20000); i++) {
    const t = now();
    const a = rangeAt(last.ranges, 1 + Math.floor(r() * LINES));
    if (a) annotationText(a.checkpoint, clock);
    f.cursor.push(now() - t);
  }
  return f;
}

export const p99 = (xs: number[]): number => percentile(xs, 99);
export { median };
