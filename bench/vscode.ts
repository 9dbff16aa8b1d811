// The VS Code figures: Baton in a real VS Code (the offline harness of
// scripts/vscode-test/: a VS Code server and headless Chromium), once with an
// empty vault and once with the 100k vault, each in a fresh VS Code. In each,
// bench/vscodePerfEntry.ts (built to .bench/build/vscode/perf.js) times the
// activation, the first look at the vault, and the CodeLens and hover of files
// the vault's checkpoints touched.
import * as fs from 'fs';
import * as path from 'path';

export interface VscodeRun {
  vault: string;
  vscode?: string;
  activeBefore?: boolean;
  activateMs?: number;
  readyMs?: number;
  /** From `activate()` to the Checkpoints view's tree listing real items (projects, not a welcome or a loading item). */
  populatedMs?: number;
  populatedItems?: { projects: number; checkpoints: number };
  heapBefore?: NodeJS.MemoryUsage;
  heapReady?: NodeJS.MemoryUsage;
  heapAfter?: NodeJS.MemoryUsage;
  lens?: number[][];
  hover?: number[][];
  /** editor.hover.delay: how long the first round waited between a file's lens and its hover. */
  hoverDelay?: number;
  /** The hovers asked again with `baton.git.enabled` off. */
  hoverNoGit?: number[];
  filesWithLens?: number;
  error?: string;
  wallSeconds: number;
}

interface Harness {
  Session: new (name: string) => { cleanup(): Promise<void>; signal: string | null };
  startWorkbench(
    session: unknown,
    opts: { flavour: string; workspace?: string },
  ): Promise<{
    dirs: { vault: string; workspace: string };
    server: { process: NodeJS.EventEmitter; url: string };
    page: {
      exposeFunction(name: string, fn: (...args: unknown[]) => unknown): Promise<void>;
      goto(url: string, opts: { waitUntil: string }): Promise<unknown>;
      on(event: string, fn: (...args: unknown[]) => void): void;
    };
  }>;
  workbenchUrl(server: unknown, opts: { workspace: string; tests: string; extensionPath: string }): string;
}

/**
 * One fresh VS Code with `vaultDir` as Baton's vault and `workspace` open.
 * The harness makes its own fixture vault and points `baton.vault` at it; that
 * folder is swapped for a link to ours before the workbench loads.
 */
export async function runInVscode(opts: {
  root: string;
  extensionPath: string;
  entry: string;
  vaultDir: string;
  workspace: string;
  files: string[];
  rounds: number;
  timeoutMs: number;
  populatedOnly?: boolean;
}): Promise<VscodeRun> {
  const t0 = Date.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const harness = require(path.join(opts.root, 'scripts', 'vscode-test', 'harness.js')) as Harness;
  const out = path.join(path.dirname(opts.entry), `result-${process.pid}-${Date.now()}.json`);
  fs.writeFileSync(
    path.join(path.dirname(opts.entry), 'vscode-perf-config.json'),
    JSON.stringify({ out, files: opts.files, rounds: opts.rounds, populatedOnly: opts.populatedOnly }),
  );
  const session = new harness.Session('bench');
  let vaultLink = '';
  try {
    const { dirs, server, page } = await harness.startWorkbench(session, { flavour: 'stable', workspace: opts.workspace });
    fs.rmSync(dirs.vault, { recursive: true, force: true });
    fs.symlinkSync(opts.vaultDir, dirs.vault, 'dir');
    vaultLink = dirs.vault;
    const exited = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no result from VS Code in ${opts.timeoutMs / 1000} s`)), opts.timeoutMs);
      void page.exposeFunction('codeAutomationLog', () => undefined);
      void page.exposeFunction('codeAutomationExit', () => {
        clearTimeout(timer);
        resolve();
      });
      server.process.on('exit', () => reject(new Error('the VS Code server exited')));
    });
    await page.goto(harness.workbenchUrl(server, { workspace: dirs.workspace, tests: opts.entry, extensionPath: opts.extensionPath }), { waitUntil: 'domcontentloaded' });
    await exited;
    const result = JSON.parse(fs.readFileSync(out, 'utf8')) as Omit<VscodeRun, 'vault' | 'wallSeconds'>;
    return { vault: opts.vaultDir, ...result, wallSeconds: (Date.now() - t0) / 1000 };
  } catch (err) {
    return { vault: opts.vaultDir, error: String((err as Error)?.message ?? err), wallSeconds: (Date.now() - t0) / 1000 };
  } finally {
    // The link goes first, so the harness's clean-up can only ever remove the link.
    if (vaultLink) fs.rmSync(vaultLink, { force: true });
    await session.cleanup();
    fs.rmSync(out, { force: true });
  }
}
