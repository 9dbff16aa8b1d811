// Keeps the stable launcher (~/.baton/bin/baton) pointing at this extension's
// bundled CLI, run by the runtime this extension host runs on. The install
// folder moves with every update; agents' configs call the launcher by path,
// so it has to follow. Scheduled after activation returns (a file read and,
// rarely, a write must never delay the views) and failures only logged: an
// unwritable home folder is no reason to stop Baton's views.
//
// The runtime: a desktop VS Code's extension host is Electron, which runs
// scripts as Node with ELECTRON_RUN_AS_NODE=1 (what VS Code's own `code`
// launcher does); a VS Code server (code-server, Remote) runs it on a plain
// Node, which must not get that switch. `process.versions.electron` tells
// which, so the launcher is right in both.
//
// Restricted Mode: refreshed too. It writes only under ~/.baton/bin and only
// paths of this extension and its runtime, nothing read from the workspace,
// so an untrusted folder cannot steer it.
import * as path from 'path';
import type * as vscode from 'vscode';
import { launcherFor, refreshLauncher, type LauncherTarget } from '../../app/connect';
import type { Log } from '../log';

export function launcherTarget(extensionPath: string): LauncherTarget {
  return launcherFor(path.join(extensionPath, 'dist', 'cli.js'));
}

/** Refreshes the launcher on the next turn; resolves to its path, or undefined when it could not be written. */
export function scheduleLauncherRefresh(context: Pick<vscode.ExtensionContext, 'extensionPath'>, log: Log): Promise<string | undefined> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
    try {
      const target = launcherTarget(context.extensionPath);
      const r = refreshLauncher(target);
      if (r.changed) log.info(`Launcher ${r.path} now runs ${target.script} with ${target.runtime}${target.electron ? ' (ELECTRON_RUN_AS_NODE=1)' : ''}`);
      return r.path;
    } catch (err) {
      log.error('Refreshing the baton launcher failed (agents connected through it may not start Baton)', err);
      return undefined;
    }
  });
}
