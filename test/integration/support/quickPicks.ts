// Answering a command's quick picks as a keyboard would, through VS Code's own
// quick-open commands: the picks are the real ones the person sees.
import * as vscode from 'vscode';
import { CONNECT_SCHEME } from '../../../src/vscode/ids';
import { poll, settle } from './baton';

export const accept = (): Thenable<unknown> => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

/** Runs a command whose picks are answered one by one: `answers[i]` runs once pick i is shown. */
export async function drive<T>(command: string, answers: (() => Thenable<unknown>)[], ...args: unknown[]): Promise<T | undefined> {
  const running = vscode.commands.executeCommand<T>(command, ...args);
  for (const answer of answers) {
    await settle(900);
    await answer();
  }
  return Promise.race([running, new Promise<undefined>((_, reject) => setTimeout(() => reject(new Error(`${command} still waiting`)), 10000))]);
}

/** Tabs showing one of Connect's before/after previews. */
export function previewTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .map((t) => t.input)
    .filter((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff && i.modified.scheme === CONNECT_SCHEME);
}

/** Accepts Connect's go-ahead once its diffs are open (it is asked right after them), however slow the host is. */
export async function acceptGoAhead(): Promise<void> {
  await poll(
    async () => previewTabs().length,
    (n) => n > 0,
    10000,
  );
  await settle(500);
  await accept();
}
