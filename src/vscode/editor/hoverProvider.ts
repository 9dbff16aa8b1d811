// The checkpoint hover: who touched this file, what they ruled out and
// decided, what comes next, and whether the file has commits since. It shows
// on the first line only, beside the file-level lens: the checkpoints are
// about the file, not a line, and on every line they would crowd out the
// language's own hovers (GitLens keeps its blame hover to the current line for
// the same reason).
import * as vscode from 'vscode';
import type { Log } from '../log';
import type { FileTouches } from './fileTouches';
import type { HoverDetails } from './hoverDetails';

export class CheckpointHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly files: FileTouches,
    private readonly details: HoverDetails,
    private readonly log: Log,
    /** Told each time a hover with checkpoints is given (the walkthrough's "Hover a file" completes on it). */
    private readonly shown: () => void = () => undefined,
  ) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    if (position.line !== 0) return undefined;
    try {
      const touches = await this.files.of(document.uri);
      if (token.isCancellationRequested || touches.length === 0) return undefined;
      const markdown = await this.details.markdown(document.uri, touches);
      if (token.isCancellationRequested || !markdown) return undefined;
      this.shown();
      return new vscode.Hover(markdown, new vscode.Range(0, 0, 0, document.lineAt(0).text.length));
    } catch (err) {
      this.log.error(`Hover for ${document.uri.fsPath} failed`, err);
      return undefined;
    }
  }
}
