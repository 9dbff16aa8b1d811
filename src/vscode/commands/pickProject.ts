// Picking a project (or worktree scope) of the vault: used by Switch Project
// and by any command run where the workspace has no project of its own.
import * as vscode from 'vscode';
import { rootProject, safeScope } from '../../core/names';
import type { BatonHost } from '../batonHost';

interface ScopeItem extends vscode.QuickPickItem {
  scope: string;
}

/** Undefined when dismissed. A typed name that is not in the vault yet is offered too (a first checkpoint creates it). */
export async function pickProject(host: BatonHost, placeholder: string): Promise<string | undefined> {
  const scopes = await host.session.vault.scopes().catch(() => [] as string[]);
  const current = host.project.current;
  const detected = host.project.detected;
  const items: ScopeItem[] = scopes.map((scope) => ({
    label: scope,
    description: [scope === detected ? 'this workspace' : '', scope === current ? 'current' : ''].filter(Boolean).join(' · ') || undefined,
    iconPath: new vscode.ThemeIcon(scope.includes('/') ? 'git-branch' : 'project'),
    scope,
  }));
  if (detected && !scopes.includes(detected)) items.unshift({ label: detected, description: 'this workspace · no sessions yet', scope: detected });
  // The workspace's own project and its worktrees first, then the rest by name.
  const mine = (s: string): number => (detected && rootProject(s) === rootProject(detected) ? 0 : 1);
  items.sort((a, b) => mine(a.scope) - mine(b.scope) || a.scope.localeCompare(b.scope));

  const qp = vscode.window.createQuickPick<ScopeItem>();
  qp.placeholder = placeholder;
  qp.matchOnDescription = true;
  qp.items = items;
  return new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (v: string | undefined): void => {
      if (done) return;
      done = true;
      resolve(v);
      qp.dispose();
    };
    qp.onDidChangeValue((v) => {
      let typed: string | undefined;
      try {
        typed = v.trim() ? safeScope(v) : undefined;
      } catch {
        typed = undefined;
      }
      qp.items = typed && !items.some((i) => i.scope === typed) ? [...items, { label: typed, description: 'new project', scope: typed }] : items;
    });
    qp.onDidAccept(() => finish(qp.selectedItems[0]?.scope));
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}
