// Runs inside the real VS Code extension host (loaded as `extensionTestsPath`
// by the offline harness, scripts/vscode-test/): activates Baton, waits for
// its first look at the vault, then asks the CodeLens and hover providers of
// files the way VS Code asks them, timing each. Writes its figures to the
// JSON file named by the config beside it. Built by bench/run.js.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

interface Config {
  out: string;
  files: string[];
  rounds: number;
  /** Only the time to populated views: no CodeLens, hover or settings change after it. */
  populatedOnly?: boolean;
}

interface Tree {
  getChildren(node?: unknown): vscode.ProviderResult<unknown[]>;
  onDidChangeTreeData?: vscode.Event<unknown>;
}

interface Api {
  ready(): Promise<void>;
  readonly views: { projects: Tree; checkpoints: Tree };
}

/** Real items: at least one, and none a loading placeholder (should the views show one instead of waiting). */
const populated = (nodes: unknown[] | null | undefined): boolean => !!nodes?.length && !nodes.some((n) => /loading/i.test(String((n as { kind?: unknown })?.kind ?? '')));

/** Asks a tree's roots as VS Code does (again on each change it announces) until they are real items; the ms since `t0`. */
async function untilPopulated(tree: Tree, t0: number, timeoutMs: number): Promise<{ ms: number; items: number }> {
  for (;;) {
    const changed = new Promise<void>((resolve) => {
      const d = tree.onDidChangeTreeData?.(() => {
        d?.dispose();
        resolve();
      });
      setTimeout(resolve, 50);
    });
    const nodes = await tree.getChildren(undefined);
    if (populated(nodes)) return { ms: now() - t0, items: nodes?.length ?? 0 };
    if (now() - t0 > timeoutMs) throw new Error(`the view had no items ${timeoutMs / 1000} s after activation`);
    await changed;
  }
}

const now = (): number => performance.now();
const SETTLE_MS = 3000;
const heap = (): NodeJS.MemoryUsage => process.memoryUsage();

export async function run(): Promise<void> {
  const config = JSON.parse(fs.readFileSync(path.join(__dirname, 'vscode-perf-config.json'), 'utf8')) as Config;
  const result: Record<string, unknown> = { vscode: vscode.version };
  try {
    const ext = vscode.extensions.getExtension<Api>('baton-dev.baton');
    if (!ext) throw new Error('baton-dev.baton is not installed in this extension host');
    result.activeBefore = ext.isActive;
    const heapBefore = heap();
    const t0 = now();
    const api = await ext.activate();
    result.activateMs = now() - t0;
    // Activation to the views populated: the Checkpoints view's tree (every project, the current one open on its
    // checkpoints) lists real items. The current scope's own list is counted once then (the scope may be none).
    const projects = await untilPopulated(api.views.projects, t0, 180_000);
    result.populatedMs = projects.ms;
    result.populatedItems = { projects: projects.items, checkpoints: ((await api.views.checkpoints.getChildren(undefined)) ?? []).length };
    if (config.populatedOnly) {
      fs.writeFileSync(config.out, JSON.stringify(result));
      return;
    }
    const t1 = now();
    await api.ready();
    result.readyMs = now() - t1;
    result.heapBefore = heapBefore;
    result.heapReady = heap();
    // A person opens a first file seconds after the window, not in the same millisecond as the first
    // look: by then the status bar's first question has loaded the saved index in the background.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!folder) throw new Error('no workspace folder');
    const lens: number[][] = [];
    const hover: number[][] = [];
    const lensCount: number[] = [];
    const hoverDelay = vscode.workspace.getConfiguration('editor.hover').get<number>('delay', 300);
    result.hoverDelay = hoverDelay;
    for (let round = 0; round < config.rounds; round++) {
      const l: number[] = [];
      const h: number[] = [];
      for (const rel of config.files) {
        const uri = vscode.Uri.joinPath(folder, rel);
        await vscode.workspace.openTextDocument(uri);
        let t = now();
        const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)) ?? [];
        l.push(now() - t);
        if (round === 0) lensCount.push(lenses.filter((x) => x.command?.command?.startsWith('baton.')).length);
        // As in an editor: the lens is asked when the file opens, the hover once the pointer has rested on
        // the first line for the hover delay. The first round waits that delay; later rounds ask at once.
        if (round === 0) await new Promise((resolve) => setTimeout(resolve, hoverDelay));
        t = now();
        await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(0, 1));
        h.push(now() - t);
      }
      lens.push(l);
      hover.push(h);
    }
    result.lens = lens;
    result.hover = hover;
    // The hover asks git, per checkpoint shown, whether the file changed since: the same hovers with git off.
    await vscode.workspace.getConfiguration('baton').update('git.enabled', false, vscode.ConfigurationTarget.Global);
    // A settings change re-registers the providers and drops their caches: let that settle, then ask once untimed.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const rel of config.files) {
      await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', vscode.Uri.joinPath(folder, rel), new vscode.Position(0, 1));
    }
    const noGit: number[] = [];
    for (const rel of config.files) {
      const uri = vscode.Uri.joinPath(folder, rel);
      const t = now();
      await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(0, 1));
      noGit.push(now() - t);
    }
    result.hoverNoGit = noGit;
    result.filesWithLens = lensCount.filter((n) => n > 0).length;
    result.heapAfter = heap();
  } catch (err) {
    result.error = String((err as Error)?.stack ?? err);
  }
  fs.writeFileSync(config.out, JSON.stringify(result));
}
