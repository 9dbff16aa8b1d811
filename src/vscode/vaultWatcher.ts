// Watches the vault's markdown files, wherever the vault lies. A
// RelativePattern on a folder outside the workspace is watched too (the
// editor's own workspace watcher would not see it), so a checkpoint an agent's
// CLI writes from another process reaches the views within a second.
import * as vscode from 'vscode';
import { Disposable, timerDisposable } from './lifecycle';
import type { Log } from './log';
import { sessionsTreeGlob } from '../app/vaultFiles';

/** Long enough to gather one commit's burst (checkpoint, notes rewrite, temp renames), short enough to feel live. */
const DEBOUNCE_MS = 300;
/** An agent writing notes non-stop must not postpone the views forever. */
const MAX_WAIT_MS = 1000;

export class VaultWatcher extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<string[]>());
  /** The absolute paths that changed since the last event, after a quiet spell. */
  readonly onDidChange = this.emitter.event;
  private pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firstAt = 0;
  /** False when no watcher could be created: then nothing may assume it hears of every change. */
  readonly watching: boolean = false;

  /** `onNotice` hears of each change at once, before the debounce: the index must not answer from before it. */
  constructor(root: string, log: Log, onNotice?: () => void) {
    super();
    try {
      const watcher = this.register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**/*.md')));
      const note = (uri: vscode.Uri): void => {
        onNotice?.();
        this.note(uri.fsPath);
      };
      this.register(watcher.onDidCreate(note));
      this.register(watcher.onDidChange(note));
      this.register(watcher.onDidDelete(note));
      // A file written into a folder made the same instant (an agent's first note in a new project) can come
      // before the recursive watcher watches that folder, and is then never reported (6 new folders in a row
      // missed one in the integration suite). The folder's own creation is reported, by its parent's watch:
      // it counts as a change, and the debounced look at the vault after it finds whatever landed inside.
      const folders = this.register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), sessionsTreeGlob()), false, true, true));
      this.register(folders.onDidCreate(note));
      this.watching = true;
    } catch (err) {
      // Without a watcher Baton still works; the views update on Refresh and after its own writes.
      log.error(`Could not watch the vault at ${root}`, err);
    }
    this.register(timerDisposable(() => this.timer && clearTimeout(this.timer)));
  }

  private note(file: string): void {
    if (this.pending.size === 0) this.firstAt = Date.now();
    this.pending.add(file);
    if (this.timer) {
      if (Date.now() - this.firstAt > MAX_WAIT_MS) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const files = [...this.pending];
      this.pending = new Set();
      if (!this.isDisposed) this.emitter.fire(files);
    }, DEBOUNCE_MS);
  }
}
