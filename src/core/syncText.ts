// The words of the status bar's sync item, built here so they are tested
// without an editor. Facts only: where the vault stands against its remote,
// when it last synced, what failed.
import { age } from './time';

export interface SyncView {
  /** Commits here not yet on the remote, and the remote's not yet here (as of the last fetch). */
  ahead: number;
  behind: number;
  /** Files changed since the last commit: they go with the next sync. */
  changed: number;
  syncing: boolean;
  /** Unix seconds of the last sync that finished, 0 when none has in this window. */
  lastSynced: number;
  /** The last sync's failure, '' when it succeeded. */
  failed: string;
}

export function syncStatusText(v: SyncView, now: number): { text: string; tooltip: string } {
  const last = v.lastSynced ? `last synced ${age(Math.max(0, now - v.lastSynced))} ago` : 'not synced in this window yet';
  const counts = [v.ahead ? `↑${v.ahead}` : '', v.behind ? `↓${v.behind}` : '', v.changed ? `±${v.changed}` : ''].filter(Boolean).join(' ');
  const icon = v.syncing ? '$(sync~spin)' : v.failed ? '$(error)' : counts ? '$(sync)' : '$(check)';
  const word = v.syncing ? 'syncing' : v.failed ? 'sync failed' : counts || 'synced';
  const lines = [
    v.failed ? `Baton: the last sync failed: ${v.failed}` : 'Baton: the vault is shared through git',
    `${v.ahead} commit(s) to push, ${v.behind} to pull (as of the last fetch), ${v.changed} file(s) changed since the last commit`,
    last,
    'Click to sync the vault now',
  ];
  return { text: `${icon} ${word}`, tooltip: lines.join('\n') };
}
