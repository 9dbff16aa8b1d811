// The "Baton" output channel. Failures the person did not cause directly (a
// background refresh, a hover) are logged here instead of interrupting them.
import * as vscode from 'vscode';

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
  show(): void;
}

export function createLog(): Log & vscode.Disposable {
  const channel = vscode.window.createOutputChannel('Baton', { log: true });
  return {
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m, err) => channel.error(err === undefined ? m : `${m}: ${describe(err)}`),
    show: () => channel.show(true),
    dispose: () => channel.dispose(),
  };
}

export function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
