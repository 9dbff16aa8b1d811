// File Checkpoints (the Explorer's; id baton.thisFile): the checkpoints that touched the active editor's file, following
// the editor as GitLens's File History does. An editor without a file (output,
// settings) or on a vault file (a checkpoint opened from this very list) keeps
// the last file shown rather than blanking the view.
import * as vscode from 'vscode';
import { claudeSessionOf } from '../../core/claudeSession';
import type { BatonHost } from '../batonHost';
import type { FileTouches } from '../editor/fileTouches';
import type { ThisFileState } from '../ids';
import { ContextKeys } from '../ids';
import type { Log } from '../log';
import type { Node } from './nodes';
import { TreeProvider } from './treeProvider';

export class ThisFileView extends TreeProvider {
  private file: vscode.Uri | undefined;
  private shownState: ThisFileState | undefined;
  /** Set by the composition root once the TreeView exists, to show the file's name. */
  view: vscode.TreeView<Node> | undefined;

  constructor(
    host: BatonHost,
    log: Log,
    private readonly touches: FileTouches,
  ) {
    super(host, log, 'File Checkpoints');
    this.register(vscode.window.onDidChangeActiveTextEditor((e) => this.follow(e)));
    this.follow(vscode.window.activeTextEditor);
  }

  get currentFile(): vscode.Uri | undefined {
    return this.file;
  }

  private follow(editor: vscode.TextEditor | undefined): void {
    const uri = editor?.document.uri;
    if (uri && uri.scheme !== 'file') return;
    // Opening one of the listed checkpoints must not empty the list it came from.
    if (uri && this.host.session.contains(uri.fsPath)) return;
    if (uri?.toString() === this.file?.toString()) return;
    this.file = uri;
    this.refresh();
  }

  protected async children(node: Node | undefined): Promise<Node[]> {
    if (node) return [];
    const file = this.file;
    if (this.view) this.view.description = file ? vscode.workspace.asRelativePath(file) : undefined;
    if (!file) {
      await this.setState('noEditor');
      return [];
    }
    const touches = await this.touches.of(file);
    if (file !== this.file) return [];
    await this.setState(touches.length ? 'some' : 'none');
    // The index's touches do not carry the binding; the checkpoint files (cached once read) do.
    const bound = await Promise.all(touches.map((t) => this.bound(t.slug)));
    if (file !== this.file) return [];
    return touches.map((touch, i) => ({ kind: 'touch', touch, claude: bound[i] }));
  }

  private async bound(slug: string): Promise<boolean> {
    const cp = await this.host.session.checkpoint(slug).catch(() => null);
    return !!cp && claudeSessionOf(cp) !== undefined;
  }

  private async setState(state: ThisFileState): Promise<void> {
    if (state === this.shownState) return;
    this.shownState = state;
    await vscode.commands.executeCommand('setContext', ContextKeys.thisFile, state);
  }
}
