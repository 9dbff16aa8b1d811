// The hover of any line a session wrote (not only the first, which keeps the
// file's checkpoints): that checkpoint's task, agent and hand-off, age, what
// it ruled out and decided, its next step, whether the file has commits since,
// and links to open or resume it. Registered only while its setting is on.
// It answers from the blame cache alone, which the active editor's file fills
// as soon as it is shown: every hover of every file asks every provider, so
// starting git here would put a process on the hover path of files no session
// wrote. A file not blamed yet is blamed in the background for the next hover.
import * as path from 'path';
import * as vscode from 'vscode';
import { rangeAt } from '../../core/agentBlame';
import { buildLineHover } from '../../core/lineBlameText';
import { lastCommits } from '../../app/lastCommits';
import { systemClock } from '../../app/openBaton';
import { gitAllowed } from '../config';
import type { Log } from '../log';
import { hoverMarkdown } from '../markdown';
import type { LineBlameCache } from './lineBlameCache';

export class LineBlameHoverProvider implements vscode.HoverProvider {
  private readonly history = lastCommits();

  constructor(
    private readonly cache: LineBlameCache,
    private readonly log: Log,
  ) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    try {
      const result = this.cache.peek(document);
      if (!result) {
        void this.cache.get(document);
        return undefined;
      }
      const a = rangeAt(result.ranges, position.line + 1);
      if (!a) return undefined;
      const file = document.uri.fsPath;
      const last = gitAllowed() ? await this.history.lastCommitTime(path.dirname(file), file) : 0;
      if (token.isCancellationRequested) return undefined;
      const blocks = buildLineHover({ checkpoint: a.checkpoint, start: a.start, end: a.end, now: systemClock.now(), changedSince: last > a.checkpoint.ts });
      return new vscode.Hover(hoverMarkdown(blocks), document.lineAt(position.line).range);
    } catch (err) {
      this.log.error(`Agent blame hover for ${document.uri.fsPath} failed`, err);
      return undefined;
    }
  }
}
