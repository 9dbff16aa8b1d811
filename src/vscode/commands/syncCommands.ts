// Baton: Sync Vault and Baton: Share or Join a Vault Through Git…. Both start
// git, so both need a trusted workspace (SyncController.sync checks for the
// first; `share` checks here).
import * as vscode from 'vscode';
import type { SyncResult } from '../../app/sync';
import { cloneSharedVault, initSharedVault } from '../../app/syncSetup';
import type { BatonHost } from '../batonHost';
import { gitAllowed, setVault } from '../config';
import type { Log } from '../log';
import type { SyncController } from '../sync/syncController';
import { asArgs, inform, showFailure, str } from './args';

export class SyncCommands {
  constructor(
    private readonly host: BatonHost,
    private readonly controller: SyncController,
    private readonly log: Log,
  ) {}

  syncVault = (): Promise<SyncResult | undefined> => this.controller.sync(true);

  /**
   * `{remote}` shares the current vault, `{clone, folder?}` joins one; without
   * them it asks, first which of the two unless `{mode: 'share' | 'join'}`
   * says (Sync Vault's buttons on a vault not shared yet).
   */
  shareVault = async (arg?: unknown): Promise<string | undefined> => {
    if (!gitAllowed()) {
      void vscode.window.showWarningMessage(
        'Baton runs git only in a trusted workspace with baton.git.enabled on. Trust this workspace, or run baton sync --init / --clone in a terminal.',
      );
      return undefined;
    }
    const a = asArgs(arg);
    let clone = str(a.clone);
    let remote = str(a.remote);
    if (!clone && !remote) {
      const given = a.mode === 'share' || a.mode === 'join' ? a.mode : undefined;
      const mode =
        given ??
        (
          await vscode.window.showQuickPick(
            [
              { label: 'Share this vault', detail: `Make ${this.host.session.root} a git repository and push it to a remote you give`, id: 'share' as const },
              { label: 'Join a shared vault', detail: 'Clone a vault someone shared into an empty folder and use it', id: 'join' as const },
            ],
            { title: 'Baton: a vault shared through git' },
          )
        )?.id;
      if (!mode) return undefined;
      const url = await vscode.window.showInputBox({
        title: mode === 'share' ? 'The remote to share the vault through (an empty repository)' : "The shared vault's git URL",
        prompt: mode === 'share' ? `${this.host.session.root} is committed and pushed there` : 'It is cloned into an empty folder you pick next, and Baton uses it',
        ignoreFocusOut: true,
      });
      if (!url?.trim()) return undefined;
      if (mode === 'share') remote = url.trim();
      else clone = url.trim();
    }
    try {
      if (remote) {
        const root = this.host.session.root;
        const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Baton: sharing the vault…' }, () => initSharedVault(root, remote));
        for (const s of r.steps) this.log.info(s);
        inform(`Baton: the vault ${root} is shared through ${remote}.`);
        await this.controller.sync(false);
        return root;
      }
      let folder = str(a.folder);
      if (!folder) {
        const picked = await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: false,
          openLabel: 'Clone the Shared Vault Here',
          title: 'An empty folder for the shared vault',
        });
        folder = picked?.[0]?.fsPath;
      }
      if (!folder || !clone) return undefined;
      const target = folder;
      const url = clone;
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Baton: cloning the shared vault…' }, () =>
        cloneSharedVault(target, url),
      );
      for (const s of r.steps) this.log.info(s);
      await setVault(target);
      inform(`Baton: joined the shared vault ${url} in ${target}.`);
      return target;
    } catch (err) {
      showFailure(this.log, 'Sharing the vault', err);
      return undefined;
    }
  };
}
