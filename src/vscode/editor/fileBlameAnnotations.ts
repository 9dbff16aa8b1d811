// Toggle Agent Blame: the whole file annotated, GitLens's gutter blame in
// spirit (src/annotations/gutterBlameAnnotationProvider.ts): before each line
// a fixed-width column, the agent and task beside the first line of each
// block, one colour per session so neighbouring blocks are told apart. Lines
// of nobody get the blank column, so the code stays aligned. On per file until
// toggled off; redrawn when that file's blame changes.
import * as vscode from 'vscode';
import { gutterText } from '../../core/lineBlameText';
import type { Attribution } from '../../core/agentBlame';
import { Disposable } from '../lifecycle';
import type { LineBlameCache } from './lineBlameCache';

// Translucent, so they read on light and dark themes alike.
const PALETTE = ['rgba(86,156,214,0.22)', 'rgba(206,145,120,0.22)', 'rgba(78,201,176,0.22)', 'rgba(197,134,192,0.22)', 'rgba(220,220,170,0.25)', 'rgba(244,135,113,0.22)'];
const COLUMN = { width: '30ch', margin: '0 1.5em 0 0', color: new vscode.ThemeColor('editorCodeLens.foreground') };

export interface FileBlock {
  start: number;
  end: number;
  text: string;
  colour: number;
}

export class FileBlameAnnotations extends Disposable {
  private readonly on = new Set<string>();
  private readonly blocks = new Map<string, FileBlock[]>();
  private readonly sessionTypes = PALETTE.map((backgroundColor) =>
    this.register(vscode.window.createTextEditorDecorationType({ before: { ...COLUMN, backgroundColor }, isWholeLine: false })),
  );
  private readonly blank = this.register(vscode.window.createTextEditorDecorationType({ before: { ...COLUMN, contentText: '\u00a0' } }));

  constructor(private readonly cache: LineBlameCache) {
    super();
    this.register(cache.onDidChange(() => this.redrawAll()));
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.redrawAll()));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => (this.on.delete(d.uri.toString()), this.blocks.delete(d.uri.toString()))));
  }

  /** For tests: the blocks drawn for a file, undefined when it is not toggled on. */
  blocksOf(uri: vscode.Uri): FileBlock[] | undefined {
    return this.on.has(uri.toString()) ? (this.blocks.get(uri.toString()) ?? []) : undefined;
  }

  /** Turns the whole-file view of the active editor's file on or off; returns whether it is now on. */
  async toggle(editor = vscode.window.activeTextEditor): Promise<boolean> {
    if (!editor) return false;
    const key = editor.document.uri.toString();
    if (this.on.delete(key)) {
      this.blocks.delete(key);
      this.draw(editor);
      return false;
    }
    this.on.add(key);
    const result = await this.cache.get(editor.document);
    if (!result) {
      void vscode.window.showInformationMessage('Baton: agent blame needs git, which runs only in a trusted workspace with baton.git.enabled.');
    } else if (result.report.nothing) {
      void vscode.window.showInformationMessage(`Baton: ${result.report.nothing}`);
    }
    this.redrawAll();
    return true;
  }

  private redrawAll(): void {
    for (const editor of vscode.window.visibleTextEditors) this.draw(editor);
  }

  private draw(editor: vscode.TextEditor): void {
    const key = editor.document.uri.toString();
    if (!this.on.has(key)) {
      for (const t of [...this.sessionTypes, this.blank]) editor.setDecorations(t, []);
      return;
    }
    const result = this.cache.peek(editor.document);
    if (!result) {
      void this.cache.get(editor.document);
      return;
    }
    const blocks = toBlocks(result.ranges);
    this.blocks.set(key, blocks);
    const bySession: vscode.DecorationOptions[][] = PALETTE.map(() => []);
    const covered = new Set<number>();
    for (const b of blocks) {
      for (let line = b.start; line <= b.end; line++) {
        covered.add(line);
        const contentText = line === b.start ? b.text : '\u00a0';
        bySession[b.colour].push({ range: new vscode.Range(line - 1, 0, line - 1, 0), renderOptions: { before: { contentText } } });
      }
    }
    const blank: vscode.Range[] = [];
    for (let line = 1; line <= editor.document.lineCount; line++) if (!covered.has(line)) blank.push(new vscode.Range(line - 1, 0, line - 1, 0));
    this.sessionTypes.forEach((t, i) => editor.setDecorations(t, bySession[i]));
    editor.setDecorations(this.blank, blank);
  }
}

/** One block per range; a session keeps its colour through the file, the colours in order of first appearance. */
export function toBlocks(ranges: readonly Attribution[]): FileBlock[] {
  const colours = new Map<string, number>();
  return ranges.map((r) => {
    if (!colours.has(r.checkpoint.slug)) colours.set(r.checkpoint.slug, colours.size % PALETTE.length);
    return { start: r.start, end: r.end, text: gutterText(r.checkpoint), colour: colours.get(r.checkpoint.slug) as number };
  });
}
