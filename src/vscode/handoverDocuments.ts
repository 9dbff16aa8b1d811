// Read-only documents for Resume's hand-over text. A virtual document rather
// than an untitled one: it is never "dirty", so closing it asks nothing, and
// its scheme lets the editor title carry a Copy action only for it.
import * as vscode from 'vscode';
import { HANDOVER_SCHEME } from './ids';
import { Disposable } from './lifecycle';

export class HandoverDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly emitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.emitter.event;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(HANDOVER_SCHEME, this));
    // Forget a hand-over once its editor is closed, so they do not pile up.
    this.register(vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === HANDOVER_SCHEME && this.texts.delete(d.uri.toString())));
  }

  /** One document per project, refreshed in place when resumed again. The `.md` name makes it render as markdown. */
  show(project: string, text: string): Thenable<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: HANDOVER_SCHEME, path: `/${project}/Hand-over — ${project.replace(/\//g, ' · ')}.md` });
    const known = this.texts.has(uri.toString());
    this.texts.set(uri.toString(), text);
    if (known) this.emitter.fire(uri);
    return vscode.window.showTextDocument(uri, { preview: false });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This hand-over is no longer open: run Baton: Resume again.';
  }
}
