// Read-only documents for Connect Agent's preview: a config file as it is and
// as Baton would write it, shown side by side with `vscode.diff` before
// anything is written. Virtual documents, not the real file: the "before"
// side must be the bytes the plan was made from (the writer refuses a file
// that changed since), and neither side may be edited and saved by accident.
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { FileChange } from '../../app/connect';
import { CONNECT_SCHEME } from '../ids';
import { Disposable } from '../lifecycle';

export class ConnectDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly emitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.emitter.event;
  private seq = 0;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(CONNECT_SCHEME, this));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === CONNECT_SCHEME && this.texts.delete(d.uri.toString())));
  }

  /**
   * Opens one diff per file the plan changes. Each preview gets its own
   * number in the path, so a second preview of the same file never shows the
   * first one's text from VS Code's document cache.
   */
  async showDiffs(files: FileChange[], verb: string): Promise<void> {
    const n = ++this.seq;
    for (const f of files) {
      // The file's own name keeps its extension, so JSON and TOML get their colours.
      const name = path.basename(f.path);
      const before = this.put(vscode.Uri.from({ scheme: CONNECT_SCHEME, path: `/${n}/before/${name}`, query: f.path }), f.before ?? '');
      const after = this.put(vscode.Uri.from({ scheme: CONNECT_SCHEME, path: `/${n}/after/${name}`, query: f.path }), f.after ?? '');
      await vscode.commands.executeCommand('vscode.diff', before, after, `${tildify(f.path)} (${f.action}: ${verb})`, { preview: false });
    }
  }

  /** Closes the previews once the person decided: they describe a plan that is now written or dropped. */
  async closeAll(): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === CONNECT_SCHEME);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This preview is no longer open: run Baton: Connect Agent… again.';
  }

  private put(uri: vscode.Uri, text: string): vscode.Uri {
    this.texts.set(uri.toString(), text);
    return uri;
  }
}

/** `~/…` for paths in the home folder: shorter in titles and messages, and the same on every machine. */
export function tildify(p: string, home: string = os.homedir()): string {
  return p === home || p.startsWith(home + path.sep) ? `~${p.slice(home.length)}` : p;
}
