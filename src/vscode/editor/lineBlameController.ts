// The current line's agent blame, GitLens's way (src/annotations/
// lineAnnotationController.ts and src/trackers/lineTracker.ts, read for the
// conventions): faded text after the end of the line, only on a line some
// session wrote, none while typing (GitLens's line tracker suspends on edits)
// or with several selections; plus the status bar naming that session. A
// cursor move answers synchronously from the cache; git runs only after an
// idle pause, never per keystroke. Its age is the editor's one "now"
// (editorClock.ts), the CodeLens's too, redrawn on each tick.
import * as vscode from 'vscode';
import { rangeAt, type Attribution } from '../../core/agentBlame';
import { annotationText, statusText } from '../../core/lineBlameText';
import { affects, readConfig } from '../config';
import { Commands } from '../ids';
import { Disposable, timerDisposable } from '../lifecycle';
import { textTooltip } from '../markdown';
import type { EditorNow } from './editorClock';
import type { LineBlameCache } from './lineBlameCache';

/** How long after the last keystroke the file is blamed again and the annotation comes back. */
export const TYPING_IDLE_MS = 600;
/** Past the end of any line: VS Code clamps the column, so the `after` text sits at the line's end (GitLens uses 2^30-1 the same way). */
const END_OF_LINE = 2 ** 30 - 1;

export class LineBlameController extends Disposable {
  // `after` attachments: contentText is set per decoration and rendered as plain text (DecorationInstanceRenderOptions).
  private readonly decoration = this.register(
    vscode.window.createTextEditorDecorationType({
      after: { margin: '0 0 0 3em', color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic', textDecoration: 'none' },
      rangeBehavior: vscode.DecorationRangeBehavior.ClosedOpen,
    }),
  );
  private readonly status = this.register(vscode.window.createStatusBarItem('baton.lineBlame', vscode.StatusBarAlignment.Left, 49));
  private typing: ReturnType<typeof setTimeout> | undefined;
  private asking: ReturnType<typeof setTimeout> | undefined;
  private shown: { uri: string; line: number; text: string } | undefined;

  constructor(
    private readonly cache: LineBlameCache,
    private readonly clock: EditorNow,
  ) {
    super();
    this.status.name = 'Baton: agent blame';
    this.register(timerDisposable(() => (clearTimeout(this.typing), clearTimeout(this.asking))));
    this.register(vscode.window.onDidChangeTextEditorSelection((e) => e.textEditor === vscode.window.activeTextEditor && this.render(e.textEditor)));
    this.register(vscode.window.onDidChangeActiveTextEditor((ed) => this.render(ed)));
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && e.document === vscode.window.activeTextEditor?.document) this.onTyping();
      }),
    );
    this.register(vscode.workspace.onDidSaveTextDocument((d) => d === vscode.window.activeTextEditor?.document && this.render(vscode.window.activeTextEditor)));
    this.register(
      cache.onDidChange((uri) => {
        const ed = vscode.window.activeTextEditor;
        if (ed && (!uri || uri.toString() === ed.document.uri.toString())) this.render(ed);
      }),
    );
    this.register(vscode.workspace.onDidChangeConfiguration((e) => (affects(e, 'blame') || affects(e, 'git')) && this.render(vscode.window.activeTextEditor)));
    this.register(clock.onDidTick(() => this.render(vscode.window.activeTextEditor)));
    this.render(vscode.window.activeTextEditor);
  }

  /** For tests: the annotation shown now, if any. */
  get current(): { uri: string; line: number; text: string } | undefined {
    return this.shown;
  }

  /** For tests: the status bar's text, "" when hidden. */
  get statusText(): string {
    return this.shown && readConfig().blame.statusBar ? this.status.text : '';
  }

  /** The attribution of a document's line, from the cache only (hover and commands ask `cache.get` themselves). */
  private attributionAt(editor: vscode.TextEditor): Attribution | undefined {
    const result = this.cache.peek(editor.document);
    if (!result) {
      this.askSoon(editor);
      return undefined;
    }
    return rangeAt(result.ranges, editor.selection.active.line + 1);
  }

  private render(editor: vscode.TextEditor | undefined): void {
    const config = readConfig().blame;
    if (!editor || this.typing || editor.selections.length > 1 || (!config.currentLine && !config.statusBar)) return this.clear(editor);
    const a = this.attributionAt(editor);
    if (!a) return this.clear(editor);
    const now = this.clock.now;
    const line = editor.selection.active.line;
    const text = annotationText(a.checkpoint, now);
    this.shown = { uri: editor.document.uri.toString(), line, text };
    if (config.currentLine) {
      const at = new vscode.Range(line, END_OF_LINE, line, END_OF_LINE);
      editor.setDecorations(this.decoration, [{ range: at, renderOptions: { after: { contentText: text } } }]);
    } else {
      editor.setDecorations(this.decoration, []);
    }
    if (config.statusBar) {
      this.status.text = statusText(a.checkpoint);
      this.status.tooltip = textTooltip(`${a.checkpoint.agent} · ${a.checkpoint.task || a.checkpoint.session}`, [
        `wrote lines ${a.start}–${a.end}`,
        text,
        'Click to open the checkpoint',
      ]);
      this.status.command = { title: 'Open checkpoint', command: Commands.openCheckpoint, arguments: [{ slug: a.checkpoint.slug }] };
      this.status.show();
    } else {
      this.status.hide();
    }
  }

  private clear(editor: vscode.TextEditor | undefined): void {
    this.shown = undefined;
    editor?.setDecorations(this.decoration, []);
    this.status.hide();
  }

  private onTyping(): void {
    const editor = vscode.window.activeTextEditor;
    clearTimeout(this.typing);
    this.typing = setTimeout(() => {
      this.typing = undefined;
      this.render(vscode.window.activeTextEditor);
    }, TYPING_IDLE_MS);
    this.clear(editor);
  }

  /** Blames off the event: a cursor move returns at once, the answer renders when it comes. */
  private askSoon(editor: vscode.TextEditor): void {
    if (this.asking) return;
    this.asking = setTimeout(() => {
      this.asking = undefined;
      void this.cache.get(editor.document);
    }, 0);
  }
}
