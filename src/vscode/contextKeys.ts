// The context keys Baton sets, written through one object that remembers what
// it last set: VS Code offers no way to read a context key back, and the
// welcome views, the walkthrough's completion events and the editor-title
// actions all switch on them, so the API can say what the `when` clauses see.
import * as vscode from 'vscode';

export type ContextValue = string | boolean;

/** How a key reaches VS Code: `setContext` for the extension, a recorder for a host a test builds beside it. */
export type ContextWriter = (key: string, value: ContextValue) => Thenable<unknown>;

export const setContext: ContextWriter = (key, value) => vscode.commands.executeCommand('setContext', key, value);

export class ContextState {
  private readonly values = new Map<string, ContextValue>();

  constructor(private readonly write: ContextWriter = setContext) {}

  /** Sets `key` unless it already holds `value` (a welcome view re-renders on every set). */
  async set(key: string, value: ContextValue): Promise<void> {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    await this.write(key, value);
  }

  get(key: string): ContextValue | undefined {
    return this.values.get(key);
  }
}
