// The settings, typed once. This interface mirrors `contributes.configuration`
// in package.json; everything else reads settings through `readConfig` and
// asks `affects` whether a change concerns it, so no string key is spelled twice.
import * as vscode from 'vscode';
import { personName } from '../app/personName';

export interface BatonConfig {
  /** The vault folder; "" means BATON_VAULT / LOGOS_VAULT / BRAIN_VAULT, then ~/baton. */
  vault: string;
  /** The agent name a person's own notes and checkpoints are recorded under; unset, their git user.name, else their login. */
  agentName: string;
  codeLens: { enabled: boolean };
  hover: { enabled: boolean };
  statusBar: { enabled: boolean };
  /** Git for checkpoints and "changed since" hovers; never used in an untrusted workspace whatever this says. */
  git: { enabled: boolean };
  /** Opt-in background syncs of a vault shared through git (`baton sync`); 0 minutes is off. */
  sync: { afterCheckpoint: boolean; intervalMinutes: number };
  /** Agent blame: each surface on its own (the whole-file view is a command, off until toggled). */
  blame: { currentLine: boolean; hover: boolean; statusBar: boolean };
  /** How Commit Checkpoint and Hand Off… ask: one markdown form to edit and save, or one input box per field. */
  checkpoint: { input: 'form' | 'steps' };
}

export const SECTION = 'baton';

export type ConfigKey = 'vault' | 'agentName' | 'codeLens' | 'hover' | 'statusBar' | 'git' | 'sync' | 'blame' | 'checkpoint';

export function readConfig(): BatonConfig {
  const c = vscode.workspace.getConfiguration(SECTION);
  return {
    vault: (c.get<string>('vault') ?? '').trim(),
    agentName: agentNameOf(c),
    codeLens: { enabled: c.get<boolean>('codeLens.enabled') ?? true },
    hover: { enabled: c.get<boolean>('hover.enabled') ?? true },
    statusBar: { enabled: c.get<boolean>('statusBar.enabled') ?? true },
    git: { enabled: c.get<boolean>('git.enabled') ?? true },
    sync: {
      afterCheckpoint: c.get<boolean>('sync.afterCheckpoint') ?? false,
      intervalMinutes: Math.max(0, Math.floor(Number(c.get<number>('sync.intervalMinutes') ?? 0)) || 0),
    },
    blame: {
      currentLine: c.get<boolean>('blame.currentLine.enabled') ?? true,
      hover: c.get<boolean>('blame.hover.enabled') ?? true,
      statusBar: c.get<boolean>('blame.statusBar.enabled') ?? true,
    },
    checkpoint: { input: c.get<string>('checkpoint.input') === 'steps' ? 'steps' : 'form' },
  };
}

/**
 * The person's own agent name: the one they set, else their git user.name,
 * else their login (app/personName.ts). Asked of the values set, not of the
 * manifest's default, so a default of an older manifest ("human") is never
 * taken for a choice.
 */
function agentNameOf(c: vscode.WorkspaceConfiguration): string {
  const i = c.inspect<string>('agentName');
  const set = [i?.workspaceFolderValue, i?.workspaceValue, i?.globalValue].find((v) => typeof v === 'string' && v.trim());
  return set?.trim() || personName();
}

/** Does this change concern `key` (or, without one, any Baton setting)? */
export function affects(e: vscode.ConfigurationChangeEvent, key?: ConfigKey): boolean {
  return e.affectsConfiguration(key ? `${SECTION}.${key}` : SECTION);
}

/**
 * Git may run only when the person allows it and the workspace is trusted: a
 * repository's config can start programs (fsmonitor, filters).
 */
export function gitAllowed(config: BatonConfig = readConfig()): boolean {
  return config.git.enabled && vscode.workspace.isTrusted;
}

/** Writes the vault folder where the person keeps it: the user settings, so every window agrees. */
export async function setVault(folder: string): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('vault', folder, vscode.ConfigurationTarget.Global);
}
