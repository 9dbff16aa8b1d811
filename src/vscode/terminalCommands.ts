// The commands a person ran in this window's terminals, for the checkpoint
// form's "Commands run": read from VS Code's shell integration
// (`window.onDidEndTerminalShellExecution`, VS Code 1.93), which sees a
// command only in a shell it could integrate with; where it cannot, the
// section starts empty and the person types them. Kept in memory only: the
// vault gets them only through a checkpoint the person saved.
import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

/** Enough for one stretch of work; the form shows the newest twenty. */
const KEPT = 50;

export class TerminalCommands extends Disposable {
  private ran: string[] = [];

  constructor() {
    super();
    // Feature-detected: a build without the event records nothing.
    const onEnd = (vscode.window as Partial<typeof vscode.window>).onDidEndTerminalShellExecution;
    if (onEnd) this.register(onEnd((e) => this.add(e.execution.commandLine.value)));
  }

  /** The commands since the last checkpoint written from this window, oldest first. */
  get since(): readonly string[] {
    return this.ran;
  }

  /** A checkpoint recorded them (or the person removed them): the next form starts after it. */
  clear(): void {
    this.ran = [];
  }

  private add(line: string): void {
    const command = line.replace(/\s+/g, ' ').trim();
    if (!command) return;
    this.ran = [...this.ran.filter((c) => c !== command), command].slice(-KEPT);
  }
}
