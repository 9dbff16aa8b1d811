// Answering a command's quick picks as a keyboard would, through VS Code's own
// quick-open commands: the picks are the real ones the person sees.
import * as vscode from 'vscode';
import { settle } from './baton';

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
