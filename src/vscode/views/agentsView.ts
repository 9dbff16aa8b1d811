// The Agents view: each agent Baton can connect, whether it is connected and
// where, read from the same plans Connect would make (app/connect's status),
// so the view can never disagree with what Connect would write. Inline
// actions run Connect/Disconnect with the agent filled in. Its nodes are its
// own plain data, not the vault's: this view answers without a vault.
import * as vscode from 'vscode';
import { agentsToOffer, connectionStatus, scopeOf, type AgentId, type AgentStatus, type Scope } from '../../app/connect';
import type { BatonHost } from '../batonHost';
import { tildify } from '../connect/connectDocuments';
import { ContextValues } from '../ids';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';

export interface AgentNode {
  kind: 'agent';
  agent: AgentId;
  label: string;
  present: boolean;
  /** The scopes where Baton's entries are, fully or partly. */
  statuses: AgentStatus[];
}

const SCOPE_LABEL: Record<Scope, string> = { user: 'User', project: 'Project', local: 'Local' };

export class AgentsView extends Disposable implements vscode.TreeDataProvider<AgentNode> {
  private readonly emitter = this.register(new vscode.EventEmitter<AgentNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
  ) {
    super();
    // The vault moving changes which vault the hooks should name: ask again.
    this.register(host.onDidChangeVault(() => this.refresh()));
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: AgentNode): AgentNode[] {
    if (node) return [];
    try {
      const projectDir = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
      return agentsToOffer().map((o) => ({ kind: 'agent', agent: o.agent, label: o.label, present: o.present, statuses: this.statuses(o.agent, projectDir) }));
    } catch (err) {
      this.log.error('The Agents view could not read the agents’ settings', err);
      return [];
    }
  }

  getTreeItem(node: AgentNode): vscode.TreeItem {
    const connected = node.statuses.filter((s) => s.connected !== 'no');
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = `agent:${node.agent}`;
    item.description = connected.length
      ? `connected: ${connected.map((s) => `${SCOPE_LABEL[s.scope]}${s.connected === 'partly' ? ' (partly)' : ''}`).join(', ')}`
      : node.present
        ? 'installed, not connected'
        : 'not connected';
    item.iconPath = new vscode.ThemeIcon(connected.length ? 'plug' : 'circle-outline');
    item.contextValue = connected.length ? ContextValues.agentConnected : ContextValues.agent;
    const lines = connected.flatMap((s) => [`${SCOPE_LABEL[s.scope]}:`, ...s.files.map((f) => `  ${tildify(f.path)}: ${f.state}`), ...s.problems.map((p) => `  ⚠ ${p}`)]);
    item.tooltip = lines.length ? lines.join('\n') : `Baton: Connect Agent… registers Baton's hooks and MCP server with ${node.label}.`;
    return item;
  }

  private statuses(agent: AgentId, projectDir: string | undefined): AgentStatus[] {
    return (['user', 'project', 'local'] as Scope[]).flatMap((scope) => {
      if (scope !== 'user' && !projectDir) return [];
      try {
        scopeOf(scope, agent);
      } catch {
        return [];
      }
      return [connectionStatus({ agent, scope, projectDir: projectDir ?? '', vault: this.host.session.root })];
    });
  }
}
