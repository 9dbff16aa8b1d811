// The checkpoint form's life, as VS Code's git extension runs a commit message
// in an editor (`git.useEditorAsCommitInput`: `.git/COMMIT_EDITMSG` opened as
// a file, the commit made from what was saved, `git.commitMessageAccept`
// "Commit" and `git.commitMessageDiscard` "Cancel" on the editor, per
// extensions/git/package.json of VS Code 1.139): one real file per form, under the extension's machine-local
// storage, never in a workspace or the vault. Saving it commits; Commit in the
// title saves and commits; closing it without saving, Discard, or a window
// that goes away writes nothing, since only a save of a form this window opened
// reaches the commit. A refused commit keeps (or reopens) the form with its text.
import * as vscode from 'vscode';
import { readForm } from '../../app/checkpointForm';
import type { CheckpointFields } from '../../core/model';
import { ContextKeys } from '../ids';
import type { ContextState } from '../contextKeys';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';

/** Forms left by a window that went away are removed after this long (a day, in ms). */
const STALE_MS = 24 * 3600 * 1000;

export interface FormRequest<T> {
  /** The file's name: the tab's title. */
  name: string;
  text: string;
  /** Writes the checkpoint; a throw is shown and the form stays open. */
  write: (fields: Partial<CheckpointFields>) => Promise<T>;
  /** Says why a commit failed (the caller's words). */
  failed: (err: unknown) => void;
}

interface Pending {
  uri: vscode.Uri;
  /** Its tab is open: only then does a closed tab mean "closed without saving". */
  shown: boolean;
  committing: boolean;
  run: (text: string) => Promise<boolean>;
  cancel: () => void;
}

export class CheckpointForms extends Disposable {
  private readonly pending = new Map<string, Pending>();
  private counter = 0;

  constructor(
    private readonly storage: vscode.Uri,
    private readonly context: ContextState,
    private readonly log: Log,
  ) {
    super();
    this.register(vscode.workspace.onDidSaveTextDocument((doc) => void this.saved(doc)));
    this.register(vscode.window.tabGroups.onDidChangeTabs(() => this.closedTabs()));
    this.register(vscode.window.onDidChangeActiveTextEditor((e) => void this.markActive(e)));
    void this.removeStale();
  }

  /** Folder of this window's forms: a new one per form, so two windows or two forms never share a file. */
  private get root(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, 'checkpoint-forms');
  }

  /**
   * Opens a form and resolves with what `write` returned once it was saved
   * and written, or undefined once it was closed without saving.
   */
  async open<T>(req: FormRequest<T>): Promise<T | undefined> {
    const dir = vscode.Uri.joinPath(this.root, `${Date.now()}-${process.pid}-${++this.counter}`);
    const uri = vscode.Uri.joinPath(dir, req.name);
    await vscode.workspace.fs.createDirectory(dir);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(req.text));
    const done = new Promise<T | undefined>((resolve) => {
      const form: Pending = {
        uri,
        shown: false,
        committing: false,
        run: async (text) => {
          try {
            const result = await req.write(readForm(text));
            this.forget(form);
            resolve(result);
            return true;
          } catch (err) {
            req.failed(err);
            return false;
          }
        },
        cancel: () => {
          this.forget(form);
          resolve(undefined);
        },
      };
      this.pending.set(uri.toString(), form);
    });
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    const form = this.formOf(uri);
    if (form) form.shown = true;
    // Task is the first thing to check: the cursor goes to its text.
    const task = editor.document.getText().indexOf('## Task\n\n');
    if (task >= 0) {
      const at = editor.document.positionAt(task + '## Task\n\n'.length);
      editor.selection = new vscode.Selection(at, editor.document.lineAt(at.line).range.end);
    }
    await this.markActive(editor);
    return done;
  }

  /** The editor title's Commit: saves the form (which commits it) or, already saved, commits what it holds. */
  commitActive = async (arg?: unknown): Promise<void> => {
    const form = this.formOf(arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri);
    if (!form) return;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === form.uri.toString());
    if (doc?.isDirty) await doc.save();
    else if (doc) await this.submit(form, doc);
  };

  /** The editor title's Discard: closes the form without saving; nothing is written. */
  discardActive = async (arg?: unknown): Promise<void> => {
    const form = this.formOf(arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri);
    if (!form) return;
    await vscode.window.showTextDocument(form.uri, { preview: false });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  };

  private formOf(uri: vscode.Uri | undefined): Pending | undefined {
    return uri ? this.pending.get(uri.toString()) : undefined;
  }

  private async saved(doc: vscode.TextDocument): Promise<void> {
    const form = this.formOf(doc.uri);
    if (form) return this.submit(form, doc);
    if (doc.uri.toString().startsWith(this.root.toString()))
      void vscode.window.showWarningMessage('Baton: this checkpoint form belongs to a window that has closed; nothing was written. Run Commit Checkpoint for a new one.');
  }

  private async submit(form: Pending, doc: vscode.TextDocument): Promise<void> {
    if (form.committing) return;
    form.committing = true;
    const ok = await form.run(doc.getText());
    form.committing = false;
    if (ok) {
      await this.closeTabs(form.uri);
      await this.remove(form.uri);
    } else if (!this.tabsOf(form.uri).length) {
      // Saved from the close prompt and then refused: the text is in the file; show it again.
      await vscode.window.showTextDocument(form.uri, { preview: false });
    }
  }

  private closedTabs(): void {
    for (const form of [...this.pending.values()]) {
      if (!form.shown || form.committing || this.tabsOf(form.uri).length) continue;
      form.cancel();
      void this.remove(form.uri);
    }
  }

  private forget(form: Pending): void {
    this.pending.delete(form.uri.toString());
    void this.markActive(vscode.window.activeTextEditor);
  }

  private tabsOf(uri: vscode.Uri): vscode.Tab[] {
    return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
  }

  private async closeTabs(uri: vscode.Uri): Promise<void> {
    const tabs = this.tabsOf(uri);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  private markActive(editor: vscode.TextEditor | undefined): Promise<void> {
    return this.context.set(ContextKeys.checkpointForm, !!this.formOf(editor?.document.uri));
  }

  private async remove(uri: vscode.Uri): Promise<void> {
    try {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(uri, '..'), { recursive: true, useTrash: false });
    } catch (err) {
      this.log.warn(`Removing the checkpoint form ${uri.fsPath} failed: ${String(err)}`);
    }
  }

  private async removeStale(): Promise<void> {
    try {
      const now = Date.now();
      for (const [name] of await vscode.workspace.fs.readDirectory(this.root)) {
        const dir = vscode.Uri.joinPath(this.root, name);
        const { mtime } = await vscode.workspace.fs.stat(dir);
        if (now - mtime > STALE_MS) await vscode.workspace.fs.delete(dir, { recursive: true, useTrash: false });
      }
    } catch {
      // No forms folder yet.
    }
  }

  override dispose(): void {
    for (const form of [...this.pending.values()]) form.cancel();
    super.dispose();
  }
}
