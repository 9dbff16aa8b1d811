// The Agents view's tree items, made from its plain nodes. Tooltips are plain
// strings, never markdown: they carry paths and parse errors of a person's
// own files, which must not render as links. A problem's item runs its fix on
// click and offers the same command as an inline action (package.json's
// menus match the contextValue), so every problem has its button.
import * as vscode from 'vscode';
import type { AgentFix } from '../../app/agentHealth';
import type { Scope } from '../../app/connect';
import { age } from '../../core/time';
import { tildify } from '../connect/connectDocuments';
import { Commands, ContextValues } from '../ids';
import { isConnected, type AgentFileNode, type AgentNode, type AgentProblemNode, type AgentsNode } from './agentNodes';

export const SCOPE_LABEL: Record<Scope, string> = { user: 'User', project: 'Project', local: 'Local' };

/** What each fix is called on its item and what it runs; the manual kind runs nothing. */
const FIXES: Record<AgentFix['kind'], { title: string; command?: string; contextValue: string }> = {
  connect: { title: 'Reconnect', command: Commands.connectAgent, contextValue: ContextValues.agentProblemConnect },
  launcher: { title: 'Refresh Launcher', command: Commands.refreshLauncher, contextValue: ContextValues.agentProblemLauncher },
  path: { title: "Install 'baton' in PATH", command: Commands.installInPath, contextValue: ContextValues.agentProblemPath },
  manual: { title: 'fix by hand', contextValue: ContextValues.agentProblemManual },
};

export function agentTreeItem(node: AgentsNode, now: number): vscode.TreeItem {
  switch (node.kind) {
    case 'agent':
      return agentItem(node, now);
    case 'agentFile':
      return fileItem(node);
    case 'agentProblem':
      return problemItem(node);
  }
}

/** "seen 5m ago" from an ISO stamp, or null when the agent never wrote to this vault. */
export function seenText(lastSeen: string | null, now: number): string | null {
  return lastSeen ? `seen ${age(now - Date.parse(lastSeen) / 1000)} ago` : null;
}

function agentItem(node: AgentNode, now: number): vscode.TreeItem {
  const connected = node.scopes.filter((s) => s.connected !== 'no');
  const problems = node.scopes.reduce((n, s) => n + s.problems.length, 0);
  const seen = seenText(node.lastSeen, now);
  const where = connected.length
    ? `connected: ${connected.map((s) => `${SCOPE_LABEL[s.scope]}${s.connected === 'partly' ? ' (partly)' : ''}`).join(', ')}`
    : node.present
      ? 'installed, not connected'
      : 'not connected';
  const hasChildren = connected.length > 0 || problems > 0;
  // Expanded when something needs fixing: the fix buttons are then in sight.
  const state = !hasChildren ? vscode.TreeItemCollapsibleState.None : problems ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
  const item = new vscode.TreeItem(node.label, state);
  // Another id while something needs fixing: VS Code keeps an item's expansion by id, so a
  // collapsed agent would hide its fix buttons; as a new item it opens Expanded.
  item.id = problems ? `agent:${node.agent}:to-fix` : `agent:${node.agent}`;
  item.description = [where, problems ? `${problems} to fix` : null, connected.length || seen ? (seen ?? 'never seen') : null].filter(Boolean).join(' · ');
  item.iconPath = new vscode.ThemeIcon(problems ? 'warning' : isConnected(node) ? 'plug' : 'circle-outline');
  item.contextValue = connected.length ? ContextValues.agentConnected : ContextValues.agent;
  const lines = [
    `${node.label}${node.present ? ' (found on this machine)' : ''}`,
    node.lastSeen ? `Last wrote to the vault ${new Date(node.lastSeen).toLocaleString()} (${seen})` : 'Never wrote to this vault',
    ...connected.flatMap((s) => [
      `${SCOPE_LABEL[s.scope]} scope: ${s.connected === 'yes' ? 'connected' : 'partly connected'}`,
      ...s.files.map((f) => `  ${tildify(f.path)}: ${f.state}`),
    ]),
    ...node.scopes.flatMap((s) => s.problems.map((p) => `⚠ ${p.text}`)),
  ];
  if (!connected.length) lines.push(`Connect Agent… registers Baton's hooks and MCP server with ${node.label}, showing the diff first.`);
  item.tooltip = lines.join('\n');
  return item;
}

function fileItem(node: AgentFileNode): vscode.TreeItem {
  const item = new vscode.TreeItem(tildify(node.path), vscode.TreeItemCollapsibleState.None);
  item.id = `agent:${node.agent}:${node.scope}:${node.path}`;
  item.description = `${SCOPE_LABEL[node.scope]} · ${node.state === 'connected' ? 'connected' : node.state === 'outdated' ? 'outdated' : 'not written'}`;
  item.tooltip = node.path;
  item.resourceUri = vscode.Uri.file(node.path);
  item.iconPath = vscode.ThemeIcon.File;
  item.contextValue = ContextValues.agentFile;
  if (node.state !== 'absent') item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(node.path)] };
  return item;
}

function problemItem(node: AgentProblemNode): vscode.TreeItem {
  const fix = FIXES[node.fix.kind];
  const item = new vscode.TreeItem(node.summary, vscode.TreeItemCollapsibleState.None);
  item.id = `agent:${node.agent}:${node.scope}:problem:${node.text}`;
  item.description = `${SCOPE_LABEL[node.scope]} · ${fix.title}`;
  item.tooltip = fix.command ? `${node.text}\n\nClick (or the button) to ${fix.title}.` : node.text;
  item.iconPath = new vscode.ThemeIcon(fix.command ? 'warning' : 'error');
  item.contextValue = fix.contextValue;
  // Connect takes the agent and scope from its argument and skips those picks; the go-ahead is still asked.
  if (fix.command) item.command = { command: fix.command, title: fix.title, arguments: [{ agent: node.agent, scope: node.scope }] };
  return item;
}
