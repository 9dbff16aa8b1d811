// The file-level CodeLens: "3 checkpoints · last: fix checkout crash · claude ·
// 2h ago" on line 0 of a file that checkpoints touched. Positions are given
// cheaply in provideCodeLenses (one cached index lookup); the title is built
// only when the lens is shown, in resolveCodeLens. Its age is the editor's
// one "now" (editorClock.ts), the blame annotation's too, and the lenses are
// asked for again on each tick, so the two never disagree.
import * as vscode from 'vscode';
import type { Touch } from '../../core/model';
import { lensTitle, lensTooltip } from '../../core/lensText';
import { Commands } from '../ids';
import type { Log } from '../log';
import type { EditorNow } from './editorClock';
import type { FileTouches } from './fileTouches';
import type { HoverDetails } from './hoverDetails';

class TouchLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly uri: vscode.Uri,
    readonly touches: Touch[],
  ) {
    super(range);
  }
}

export class CheckpointCodeLensProvider implements vscode.CodeLensProvider<TouchLens> {
  constructor(
    private readonly files: FileTouches,
    private readonly details: HoverDetails,
    private readonly log: Log,
    /** Fired when the vault changed and on each tick of the clock: lenses are asked for again. */
    readonly onDidChangeCodeLenses: vscode.Event<void>,
    private readonly clock: EditorNow,
  ) {}

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<TouchLens[]> {
    try {
      const touches = await this.files.of(document.uri);
      if (token.isCancellationRequested || touches.length === 0) return [];
      this.details.prefetch(document.uri, touches);
      return [new TouchLens(new vscode.Range(0, 0, 0, 0), document.uri, touches)];
    } catch (err) {
      this.log.error(`CodeLens for ${document.uri.fsPath} failed`, err);
      return [];
    }
  }

  resolveCodeLens(lens: TouchLens): TouchLens {
    lens.command = {
      title: lensTitle(lens.touches, this.clock.now),
      tooltip: lensTooltip(lens.touches),
      command: Commands.showFileCheckpoints,
      arguments: [lens.uri],
    };
    return lens;
  }
}
