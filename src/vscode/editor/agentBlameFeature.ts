// Agent blame in the editor, its parts under one owner: the blame cache, the
// current-line annotation and status bar, the line hover (registered while
// `baton.blame.hover.enabled`), and the whole-file toggle.
import * as vscode from 'vscode';
import type { BatonHost } from '../batonHost';
import { affects, readConfig } from '../config';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import type { EditorNow } from './editorClock';
import { FileBlameAnnotations, type FileBlock } from './fileBlameAnnotations';
import { LineBlameCache } from './lineBlameCache';
import { LineBlameController } from './lineBlameController';
import type { ClaimChecks } from '../claimChecks';
import { LineBlameHoverProvider } from './lineBlameHover';

export interface AgentBlameView {
  /** The current-line annotation shown, if any. */
  readonly current: { uri: string; line: number; text: string } | undefined;
  /** The status bar's agent-blame text, "" when hidden. */
  readonly statusText: string;
  /** The whole-file blocks of a toggled file; undefined when not toggled on. */
  blocksOf(uri: vscode.Uri): FileBlock[] | undefined;
}

export class AgentBlameFeature extends Disposable implements AgentBlameView {
  private readonly cache: LineBlameCache;
  private readonly line: LineBlameController;
  private readonly file: FileBlameAnnotations;
  private hover: vscode.Disposable | undefined;

  constructor(
    host: BatonHost,
    private readonly log: Log,
    clock: EditorNow,
    private readonly claims: ClaimChecks,
  ) {
    super();
    this.cache = this.register(new LineBlameCache(host, log));
    this.line = this.register(new LineBlameController(this.cache, clock));
    this.file = this.register(new FileBlameAnnotations(this.cache));
    this.register(vscode.workspace.onDidChangeConfiguration((e) => affects(e, 'blame') && this.applyHover()));
    this.register({ dispose: () => this.hover?.dispose() });
    this.applyHover();
  }

  get current(): { uri: string; line: number; text: string } | undefined {
    return this.line.current;
  }

  get statusText(): string {
    return this.line.statusText;
  }

  blocksOf(uri: vscode.Uri): FileBlock[] | undefined {
    return this.file.blocksOf(uri);
  }

  /** Baton: Toggle Agent Blame. */
  readonly toggle = (): Promise<boolean> => this.file.toggle();

  private applyHover(): void {
    const on = readConfig().blame.hover;
    if (on && !this.hover) this.hover = vscode.languages.registerHoverProvider({ scheme: 'file' }, new LineBlameHoverProvider(this.cache, this.log, this.claims));
    else if (!on && this.hover) {
      this.hover.dispose();
      this.hover = undefined;
    }
  }
}
