// The hover of any line a session wrote (not only the first, which keeps the
// file's checkpoints): that checkpoint's task, agent and hand-off, age, what
// it ruled out and decided, its next step, whether the file has commits since,
// and links to open or resume it. Registered only while its setting is on.
// It answers from the blame cache alone, which the active editor's file (and a
// file toggled to the whole-file view) fills as soon as it is shown: every
// hover of every file asks every provider, so starting git or reading the
// project's checkpoints here, even in the background, would load the hover of
// files no session wrote (the bench's hovers measured it).
import * as path from 'path';
import * as vscode from 'vscode';
import { rangeAt } from '../../core/agentBlame';
import { buildLineHover } from '../../core/lineBlameText';
import { machineOf, whoseAmong } from '../../core/whose';
import { lastCommits } from '../../app/lastCommits';
import { systemClock } from '../../app/openBaton';
import { gitAllowed } from '../config';
import type { ClaimChecks } from '../claimChecks';
import type { Log } from '../log';
import { hoverMarkdown } from '../markdown';
import type { LineBlameCache } from './lineBlameCache';

export class LineBlameHoverProvider implements vscode.HoverProvider {
  private readonly history = lastCommits();

  constructor(
    private readonly cache: LineBlameCache,
    private readonly log: Log,
    private readonly claims: ClaimChecks,
  ) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    try {
      const result = this.cache.peek(document);
      if (!result) return undefined;
      const a = rangeAt(result.ranges, position.line + 1);
      if (!a) return undefined;
      const file = document.uri.fsPath;
      const claims = this.claims.of(a.checkpoint);
      const stale = claims.some((c) => c.state === 'stale');
      const [last, here, rerun] = await Promise.all([
        gitAllowed() ? this.history.lastCommitTime(path.dirname(file), file) : 0,
        this.cache.machine(),
        stale ? this.claims.rerunnable(a.checkpoint) : false,
      ]);
      if (token.isCancellationRequested) return undefined;
      // Whose, when the sessions that wrote this file come from more than one machine (core/whose.ts).
      const whose = whoseAmong(
        result.ranges.map((r) => machineOf(r.checkpoint.extra)),
        here,
      )(machineOf(a.checkpoint.extra));
      const blocks = buildLineHover({ checkpoint: a.checkpoint, start: a.start, end: a.end, now: systemClock.now(), changedSince: last > a.checkpoint.ts, whose, claims, rerun });
      return new vscode.Hover(hoverMarkdown(blocks), document.lineAt(position.line).range);
    } catch (err) {
      this.log.error(`Agent blame hover for ${document.uri.fsPath} failed`, err);
      return undefined;
    }
  }
}
