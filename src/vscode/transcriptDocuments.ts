// Read-only documents for an agent's JSONL transcript. A virtual document
// rather than the file itself: the transcript is the agent's record, and an
// editor on the real file would let a stray keystroke and Ctrl+S rewrite it.
// Only paths Open Transcript checked and handed over are served, so another
// extension cannot use this scheme to read arbitrary files through Baton.
import * as vscode from 'vscode';
import { transcriptText } from '../app/transcriptText';
import { TRANSCRIPT_SCHEME } from './ids';
import { Disposable } from './lifecycle';

/** Past this the transcript is not loaded into the extension host; the message names the file instead. */
export const TRANSCRIPT_LIMIT = 50 * 1024 * 1024;

export class TranscriptDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly allowed = new Set<string>();
  private readonly emitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.emitter.event;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, this));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === TRANSCRIPT_SCHEME && this.allowed.delete(d.uri.toString())));
  }

  /**
   * Opens `file` (absolute, checked by the caller) read-only. Opened again, it
   * is reread: a live session's transcript grows while it is open.
   */
  show(file: string): Thenable<vscode.TextEditor> {
    // The file's own path keeps its `.jsonl` name, so VS Code picks the language by it.
    const uri = vscode.Uri.file(file).with({ scheme: TRANSCRIPT_SCHEME });
    const known = this.allowed.has(uri.toString());
    this.allowed.add(uri.toString());
    if (known) this.emitter.fire(uri);
    return vscode.window.showTextDocument(uri, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    if (!this.allowed.has(uri.toString())) return 'Open this transcript with Baton: Open Transcript on its checkpoint.';
    try {
      // Not fs.readFile: the file may have become a FIFO or a link to /dev/zero since Open Transcript checked it (transcriptText.ts).
      return transcriptText(uri.fsPath, TRANSCRIPT_LIMIT);
    } catch (err) {
      return `The transcript could not be read: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}
