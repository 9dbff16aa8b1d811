// Issue 30: from the extension's activation to its views populated (the
// Checkpoints view's tree and the current scope's checkpoints listing real
// items, not an empty welcome or a loading state), at the smallest and the
// largest vault, each in fresh VS Code windows taken in turn (small, large,
// small, large…) so the machine's load hits both alike. The vaults keep the
// index the earlier phases saved, as a reload finds it.
import * as fs from 'fs';
import * as path from 'path';
import { META_FILE, type VaultMeta } from './generate';
import { median } from './stats';
import { runInVscode, type VscodeRun } from './vscode';

export interface PopulatedFigures {
  skipped: string;
  small: number;
  large: number;
  project: string;
  runs: VscodeRun[];
}

export interface PopulatedSummary {
  smallBest: number;
  largeBest: number;
  /** The quickest large over the quickest small: a window's one event, at the mercy of the load, taken at its best. */
  ratio: number;
  /** The median of each pair's large over small. */
  pairedRatio: number;
  pairs: number;
  version: string;
}

export async function populatedPhase(opts: {
  root: string;
  cache: string;
  small: { size: number; root: string };
  large: { size: number; root: string };
  pairs: number;
  log: (msg: string) => void;
}): Promise<PopulatedFigures> {
  const entry = path.join(opts.cache, 'build', 'vscode', 'perf.js');
  const extensionPath = path.join(opts.cache, 'build', 'dev');
  const base = { skipped: '', small: opts.small.size, large: opts.large.size, project: '', runs: [] as VscodeRun[] };
  if (!fs.existsSync(path.join(opts.root, 'scripts', 'vscode-test', 'harness.js')) || !fs.existsSync(entry)) {
    return { ...base, skipped: 'the offline VS Code harness (scripts/vscode-test/harness.js) or the built entry is missing' };
  }
  // A project both vaults hold: the workspace folder's name is the project, so both windows open on the same scope.
  const metaOf = (root: string): VaultMeta => JSON.parse(fs.readFileSync(path.join(root, META_FILE), 'utf8')) as VaultMeta;
  const inLarge = new Set(metaOf(opts.large.root).projects.map((p) => p.name));
  const project = metaOf(opts.small.root).projects.find((p) => inLarge.has(p.name));
  if (!project) return { ...base, skipped: 'no project is in both vaults' };
  const ws = path.join(opts.cache, 'vscode', 'populated', project.name);
  fs.mkdirSync(ws, { recursive: true });
  const runs: VscodeRun[] = [];
  for (let i = 0; i < opts.pairs; i++) {
    for (const v of [opts.small, opts.large]) {
      opts.log(`VS Code, activation to populated views: ${v.size} checkpoints (pair ${i + 1} of ${opts.pairs})`);
      const run = await runInVscode({ root: opts.root, extensionPath, entry, vaultDir: v.root, workspace: ws, files: [], rounds: 0, timeoutMs: 240_000, populatedOnly: true });
      if (run.error) opts.log(`  failed: ${run.error}`);
      else opts.log(`  ${run.populatedMs?.toFixed(0)} ms (activate ${run.activateMs?.toFixed(0)} ms; items ${JSON.stringify(run.populatedItems)})`);
      runs.push(run);
    }
  }
  return { ...base, project: project.name, runs };
}

export function summarizePopulated(f: PopulatedFigures | null | undefined): PopulatedSummary | null {
  if (!f || f.skipped) return null;
  const ok = (r: VscodeRun | undefined): r is VscodeRun & { populatedMs: number } => !!r && !r.error && typeof r.populatedMs === 'number';
  const small = f.runs.filter((r, i) => i % 2 === 0 && ok(r)).map((r) => r.populatedMs as number);
  const large = f.runs.filter((r, i) => i % 2 === 1 && ok(r)).map((r) => r.populatedMs as number);
  const paired: number[] = [];
  for (let i = 0; i + 1 < f.runs.length; i += 2) {
    const [s, l] = [f.runs[i], f.runs[i + 1]];
    if (ok(s) && ok(l)) paired.push(l.populatedMs / s.populatedMs);
  }
  if (!small.length || !large.length) return null;
  const smallBest = Math.min(...small);
  const largeBest = Math.min(...large);
  return {
    smallBest,
    largeBest,
    ratio: largeBest / smallBest,
    pairedRatio: paired.length ? median(paired) : NaN,
    pairs: paired.length,
    version: f.runs.find((r) => r.vscode)?.vscode ?? '',
  };
}
