// The hover of any line a session wrote (not only the first, which keeps the
// file's checkpoints): that checkpoint's task, agent and hand-off, age, what
// it ruled out and decided, its next step, whether the file has commits since,
// and links to open or resume it. Registered only while its setting is on;
// answers from the blame cache (which a cursor resting on the line has
// usually filled already) and checks cancellation after every await.
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
      const result = this.cache.peek(document) ?? (await this.cache.get(document));
      if (token.isCancellationRequested || !result) return undefined;
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
