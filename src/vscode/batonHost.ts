// The extension-lifetime owner of the vault session: builds it from the
// settings, rebuilds it when `baton.vault` changes, keeps the welcome views'
// context keys in step with the vault's state, and tells every view and editor
// surface when to ask again. Views never hold a VaultSession across events.
//
// Loading is a state of its own: until a look at the vault (the first one, the
// one after a vault switch, a rebuild of the index) has answered, the state is
// `loading`, the views wait on `loaded()` and show progress, and no welcome
// that says "empty" or "Restricted Mode" is true yet, so none shows.
import * as vscode from 'vscode';
import { resolveVault } from '../app/vaultLocation';
import type { IndexResult } from '../core/requests';
import { affects, readConfig } from './config';
import { ContextState } from './contextKeys';
import type { VaultState } from './ids';
import { ContextKeys, Views } from './ids';
import { Disposable } from './lifecycle';
import type { Log } from './log';
import type { ProjectScope } from './projectScope';
import type { VaultChange } from './vaultSession';
import { VaultSession } from './vaultSession';

export interface HostOptions {
  /** Builds the session of one vault folder: a plain VaultSession for the extension. */
  openSession?: (root: string, log: Log) => VaultSession;
  /** Where the context keys go: VS Code's, unless a host built beside the extension's must not touch them. */
  context?: ContextState;
  /** Shows that a look at the vault is under way until `until` settles: progress on every vault view for the extension. */
  showLoading?: (until: Promise<unknown>) => void;
}

/** The vault's views; Agents reads the agents' settings, not the vault, and never waits on it. */
const VAULT_VIEWS = [Views.checkpoints, Views.abandoned, Views.plans, Views.thisFile];

function progressOnViews(until: Promise<unknown>): void {
  const settled = until.catch(() => undefined);
  for (const viewId of VAULT_VIEWS) void vscode.window.withProgress({ location: { viewId } }, () => settled);
}

export class BatonHost extends Disposable {
  private current: VaultSession;
  private sessionListener: vscode.Disposable | undefined;
  private vaultState: VaultState = 'loading';
  private readonly changeEmitter = this.register(new vscode.EventEmitter<VaultChange>());
  /** Anything the views show may have changed: vault files, the vault itself, the project. */
  readonly onDidChange = this.changeEmitter.event;
  private firstLook: Promise<void> | undefined;
  /** The look under way or the last one: what the views wait on. */
  private looking: Promise<void> | undefined;
  private lookPending = false;
  private readonly vaultEmitter = this.register(new vscode.EventEmitter<string>());
  /** Fired with the new folder when `baton.vault` moved the session to another vault. */
  readonly onDidChangeVault = this.vaultEmitter.event;
  readonly context: ContextState;
  private readonly openSession: (root: string, log: Log) => VaultSession;
  private readonly showLoading: (until: Promise<unknown>) => void;

  constructor(
    private readonly log: Log,
    readonly project: ProjectScope,
    opts: HostOptions = {},
  ) {
    super();
    this.context = opts.context ?? new ContextState();
    this.openSession = opts.openSession ?? ((root, l) => new VaultSession(root, l));
    this.showLoading = opts.showLoading ?? progressOnViews;
    this.current = this.open();
    this.register({ dispose: () => this.closeSession() });
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!affects(e, 'vault')) return;
        this.closeSession();
        this.current = this.open();
        this.vaultEmitter.fire(this.current.root);
        this.look().catch((err) => this.log.error('Looking at the new vault failed', err));
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
   * After a write or a Refresh: probes the vault, updates the welcome views'
   * keys and tells everyone to ask again. During a look it leaves the state
   * to the look, which answers when the vault has.
   */
  async refresh(change: VaultChange = {}): Promise<void> {
    if (this.lookPending) return;
    const session = this.current;
    const state = await session.probe();
    if (session !== this.current || this.lookPending) return;
    await this.publish(state, change);
  }

  /** Resolves once the first look at the vault has answered (the API's ready; activation schedules it). */
  ready(): Promise<void> {
    this.firstLook ??= this.look();
    return this.firstLook;
  }

  /** Resolves once the current look at the vault has answered: the first, or the one after a vault switch or a rebuild. */
  loaded(): Promise<void> {
    return this.looking ?? this.ready();
  }

  /** Rebuild Index: the views show loading until the rebuilt index has answered. */
  async rebuildIndex(): Promise<IndexResult> {
    let result: IndexResult | undefined;
    await this.look(async (session) => {
      result = await session.rebuildIndex();
    });
    return result as IndexResult;
  }

  /** Saves the index before the extension host goes away. */
  async flush(): Promise<void> {
    await this.current.flush();
  }

  /**
   * One look: the state is `loading` (views told, so they wait on it) until
   * `work` (if any), the probe and, for a vault with sessions, the first read
   * have answered. A failure of `work` is thrown after the state is published.
   */
  private look(work?: (session: VaultSession) => Promise<void>): Promise<void> {
    const session = this.current;
    this.lookPending = true;
    const run = async (): Promise<void> => {
      let failed: { err: unknown } | undefined;
      try {
        await this.publishLoading();
        if (work) await work(session).catch((err: unknown) => (failed = { err }));
        const state = await session.probe();
        // A failed read is the views' to log again; the vault is there, so its views are shown.
        if (state === 'ready') await session.load().catch((err: unknown) => this.log.error(`Reading the vault ${session.root} failed`, err));
        if (session !== this.current) return;
        this.lookPending = false;
        await this.publish(state, {});
      } finally {
        if (session === this.current) this.lookPending = false;
      }
      if (failed) throw failed.err;
    };
    const p = run();
    this.looking = p.catch(() => undefined);
    this.showLoading(p);
    return p;
  }

  private async publishLoading(): Promise<void> {
    this.vaultState = 'loading';
    await this.context.set(ContextKeys.vaultState, 'loading');
    this.changeEmitter.fire({});
  }

  private async publish(state: VaultState, change: VaultChange): Promise<void> {
    if (state !== this.vaultState) this.log.info(`Vault ${this.current.root}: ${state}`);
    this.vaultState = state;
    // The walkthrough's first step: a folder chosen, or the default one created by a first write.
    await this.context.set(ContextKeys.vaultExists, state === 'empty' || state === 'ready');
    await this.context.set(ContextKeys.vaultState, state);
    this.changeEmitter.fire(change);
  }

  private open(): VaultSession {
    const root = resolveVault(readConfig().vault || undefined);
    this.log.info(`Using the vault at ${root}`);
    const session = this.openSession(root, this.log);
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
