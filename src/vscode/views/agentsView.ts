// The Agents view: each agent Baton can connect, whether it is connected and
// where, when it last wrote to the vault, and its problems each with the
// command that fixes it. Every agent is judged by app/agentHealth.ts, the
// function `baton doctor` prints, from the same plans Connect would make and
// the same index query for "last seen", so the view can never say "fine"
// where doctor says "FIX". Its nodes are its own plain data, not the vault's:
// it answers without a vault (then nothing is "seen").
import * as os from 'os';
import * as vscode from 'vscode';
import { agentHealth } from '../../app/agentHealth';
import { agentsToOffer, connectionStatus, scopeOf, type AgentId, type Scope } from '../../app/connect';
import { checkLauncher } from '../../app/launcherCheck';
import { systemClock } from '../../app/openBaton';
import type { BatonHost } from '../batonHost';
import { ContextKeys } from '../ids';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { agentTreeItem } from './agentItems';
import { childrenOf, isConnected, type AgentNode, type AgentsNode } from './agentNodes';

export class AgentsView extends Disposable implements vscode.TreeDataProvider<AgentsNode> {
  private readonly emitter = this.register(new vscode.EventEmitter<AgentsNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  /** Set by BatonViews once the tree exists: its message says where to start when nothing is connected. */
  view: vscode.TreeView<AgentsNode> | undefined;
  private connected: boolean | undefined;

  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
  ) {
    super();
    // The vault moving changes which vault the hooks should name; a write to
    // it may be an agent's first ("last seen").
    this.register(host.onDidChangeVault(() => this.refresh()));
    this.register(host.onDidChange(() => this.refresh()));
    // After activation returns: it reads the agents' files.
    const first = setTimeout(() => this.checkConnected(), 0);
    this.register({ dispose: () => clearTimeout(first) });
  }

  refresh(): void {
    this.emitter.fire(undefined);
    this.checkConnected();
  }

  /**
   * Sets `baton.agentConnected`, on which the walkthrough's Connect step
   * completes: an agent really connected, not Connect Agent… merely run (and
   * perhaps cancelled). Read from the agents' files, whether the view is in
   * sight or not; connectionStatus only, no vault. (`onContext:` completion
   * events: https://code.visualstudio.com/api/references/contribution-points#Completion-events)
   */
  checkConnected(): void {
    if (this.isDisposed) return;
    try {
      const home = os.homedir();
      const projectDir = this.projectDir();
      const vault = this.host.session.root;
      const any = agentsToOffer(home).some((o) =>
        scopesHere(o.agent, projectDir).some(
          (scope) => connectionStatus({ agent: o.agent, scope, projectDir: projectDir ?? '', vault, home, env: process.env }).connected !== 'no',
        ),
      );
      this.setConnected(any);
    } catch (err) {
      this.log.error('Reading whether an agent is connected failed', err);
    }
  }

  private setConnected(any: boolean): void {
    if (any === this.connected) return;
    this.connected = any;
    void vscode.commands.executeCommand('setContext', ContextKeys.agentConnected, any);
  }

  async getChildren(node?: AgentsNode): Promise<AgentsNode[]> {
    if (node) return node.kind === 'agent' ? childrenOf(node) : [];
    try {
      const roots = await this.roots();
      this.setConnected(roots.some((r) => isConnected(r)));
      void vscode.commands.executeCommand('setContext', ContextKeys.agentsState, 'ok');
      if (this.view)
        this.view.message = roots.some((r) => isConnected(r))
          ? undefined
          : 'No agent is connected to Baton yet: press the plug beside one (those found on this machine come first).';
      return roots;
    } catch (err) {
      this.log.error('The Agents view could not read the agents’ settings', err);
      // An empty tree shows the view's welcome, which offers Connect and the log.
      void vscode.commands.executeCommand('setContext', ContextKeys.agentsState, 'unreadable');
      return [];
    }
  }

  getTreeItem(node: AgentsNode): vscode.TreeItem {
    return agentTreeItem(node, systemClock.now());
  }

  private async roots(): Promise<AgentNode[]> {
    const home = os.homedir();
    const projectDir = this.projectDir();
    const seen = await this.seen();
    const launcher = checkLauncher(null, home);
    const vault = this.host.session.root;
    const pathEnv = process.env.PATH ?? '';
    return agentsToOffer(home).map((o) => {
      const scopes = scopesHere(o.agent, projectDir).map((scope) =>
        agentHealth({ agent: o.agent, scope, projectDir: projectDir ?? '', vault, home, launcher, seen, pathEnv, env: process.env }),
      );
      return { kind: 'agent', agent: o.agent, label: o.label, present: o.present, scopes, lastSeen: scopes[0]?.lastSeen ?? null };
    });
  }

  /** The workspace folder project and local scopes are read in, as Connect writes them. */
  private projectDir(): string | undefined {
    return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  }

  /** The index's per-name stamps; none while there is no vault to read (its welcome says so). */
  private async seen(): Promise<{ agent: string; ts: number }[]> {
    await this.host.ready();
    if (this.host.state !== 'ready' && this.host.state !== 'empty') return [];
    try {
      return await this.host.session.lastByAgent();
    } catch (err) {
      this.log.error('The Agents view could not read when agents last wrote', err);
      return [];
    }
  }
}

function scopesHere(agent: AgentId, projectDir: string | undefined): Scope[] {
  return (['user', 'project', 'local'] as Scope[]).filter((scope) => {
    if (scope !== 'user' && !projectDir) return false;
    try {
      scopeOf(scope, agent);
      return true;
    } catch {
      return false;
    }
  });
}
