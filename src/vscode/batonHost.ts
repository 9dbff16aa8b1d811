// The extension-lifetime owner of the vault session: builds it from the
// settings, rebuilds it when `baton.vault` changes, keeps the welcome views'
// context key in step with the vault's state, and tells every view and editor
// surface when to ask again. Views never hold a VaultSession across events.
import * as vscode from 'vscode';
import { resolveVault } from '../app/vaultLocation';
import { affects, readConfig } from './config';
import type { VaultState } from './ids';
import { ContextKeys } from './ids';
import { Disposable } from './lifecycle';
import type { Log } from './log';
import type { ProjectScope } from './projectScope';
import type { VaultChange } from './vaultSession';
import { VaultSession } from './vaultSession';

export class BatonHost extends Disposable {
  private current: VaultSession;
  private sessionListener: vscode.Disposable | undefined;
  private vaultState: VaultState = 'loading';
  private readonly changeEmitter = this.register(new vscode.EventEmitter<VaultChange>());
  /** Anything the views show may have changed: vault files, the vault itself, the project. */
  readonly onDidChange = this.changeEmitter.event;
  private firstRefresh: Promise<void> | undefined;
  private readonly vaultEmitter = this.register(new vscode.EventEmitter<string>());
  /** Fired with the new folder when `baton.vault` moved the session to another vault. */
  readonly onDidChangeVault = this.vaultEmitter.event;

  constructor(
    private readonly log: Log,
    readonly project: ProjectScope,
  ) {
    super();
    this.current = this.open();
    this.register({ dispose: () => this.closeSession() });
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!affects(e, 'vault')) return;
        this.closeSession();
        this.current = this.open();
        this.vaultEmitter.fire(this.current.root);
        void this.refresh();
      }),
    );
    this.register(project.onDidChange(() => this.changeEmitter.fire({})));
  }

  get session(): VaultSession {
    return this.current;
  }

  get state(): VaultState {
    return this.vaultState;
  }

  /** The agent name a person's own writes are recorded under. */
  get agent(): string {
    return readConfig().agentName;
  }

  /**
   * Probes the vault, updates the welcome views' key and tells everyone to ask
   * again. The first call is made after activation returned, so activating
   * never waits for a look at the vault.
   */
  async refresh(change: VaultChange = {}): Promise<void> {
    const session = this.current;
    const state = await session.probe();
    if (session !== this.current) return;
    if (state !== this.vaultState) this.log.info(`Vault ${session.root}: ${state}`);
    this.vaultState = state;
    await vscode.commands.executeCommand('setContext', ContextKeys.vaultState, state);
    this.changeEmitter.fire(change);
  }

  /** Resolves once the first refresh has happened (tests and the status bar wait on it). */
  ready(): Promise<void> {
    this.firstRefresh ??= this.refresh();
    return this.firstRefresh;
  }

  /** Saves the index before the extension host goes away. */
  async flush(): Promise<void> {
    await this.current.flush();
  }

  private open(): VaultSession {
    const root = resolveVault(readConfig().vault || undefined);
    this.log.info(`Using the vault at ${root}`);
    const session = new VaultSession(root, this.log);
    this.sessionListener = session.onDidWrite((change) => {
      this.refresh(change).catch((err) => this.log.error('Refreshing after a vault change failed', err));
    });
    return session;
  }

  private closeSession(): void {
    this.sessionListener?.dispose();
    this.current.dispose();
  }
}
