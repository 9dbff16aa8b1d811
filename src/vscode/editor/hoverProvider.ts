// The checkpoint hover: who touched this file, what they ruled out and
// decided, what comes next, and whether the file has commits since. It shows
// on the first line only, beside the file-level lens: the checkpoints are
// about the file, not a line, and on every line they would crowd out the
// language's own hovers (GitLens keeps its blame hover to the current line for
// the same reason).
import * as vscode from 'vscode';
import type { Touch } from '../../core/model';
import { buildHover, DETAILED, type HoverEntry } from '../../core/hoverText';
import { FileHistory } from '../../adapters/git/fileHistory';
import { systemClock } from '../../adapters/openBaton';
import type { BatonHost } from '../batonHost';
import { gitAllowed } from '../config';
import type { Log } from '../log';
import { hoverMarkdown } from '../markdown';
import type { FileTouches } from './fileTouches';

/** The detailed entries plus the listed ones; the rest are counted and a link shows them all. */
const ENTRIES = 10;

export class CheckpointHoverProvider implements vscode.HoverProvider {
  private readonly history = new FileHistory();

  constructor(
    private readonly host: BatonHost,
    private readonly files: FileTouches,
    private readonly log: Log,
  ) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    if (position.line !== 0) return undefined;
    try {
      const touches = await this.files.of(document.uri);
      if (token.isCancellationRequested || touches.length === 0) return undefined;
      const entries = await this.entries(document.uri, touches.slice(0, ENTRIES));
      if (token.isCancellationRequested) return undefined;
      const blocks = buildHover({ entries, total: touches.length, now: systemClock.now(), file: document.uri.toString() });
      return new vscode.Hover(hoverMarkdown(blocks), new vscode.Range(0, 0, 0, document.lineAt(0).text.length));
    } catch (err) {
      this.log.error(`Hover for ${document.uri.fsPath} failed`, err);
      return undefined;
    }
  }

  private async entries(uri: vscode.Uri, touches: Touch[]): Promise<HoverEntry[]> {
    const q = this.files.queryOf(uri);
    // Git runs only in a trusted workspace: a repository's config can start programs.
    const git = gitAllowed() && q?.folder ? { dir: q.folder.uri.fsPath, file: q.query } : undefined;
    // One git question per file, whatever the number of checkpoints: its last commit time against each checkpoint's.
    const last = git ? this.history.lastCommitTime(git.dir, git.file) : Promise.resolve(0);
    return Promise.all(
      touches.map(async (touch, i): Promise<HoverEntry> => {
        if (i >= DETAILED) return { touch, checkpoint: null, changedSince: false };
        const [checkpoint, lastTs] = await Promise.all([this.host.session.checkpoint(touch.slug), last]);
        return { touch, checkpoint, changedSince: lastTs > touch.ts };
      }),
    );
  }
}
