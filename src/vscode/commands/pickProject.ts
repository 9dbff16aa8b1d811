// Picking a project (or worktree scope) of the vault: used by Switch Project
// and by any command run where the workspace has no project of its own. The
// quick pick under it, which also offers what is typed, picks Hand Off's agent.
import * as vscode from 'vscode';
import { rootProject, safeScope } from '../../core/names';
import type { BatonHost } from '../batonHost';
import { str } from './args';

/** An entry of a pick-or-type list: the name it stands for, whatever its label shows. */
export interface Choice extends vscode.QuickPickItem {
  value: string;
}

export interface PickOrType {
  title?: string;
  placeholder: string;
  items: Choice[];
  matchOnDescription?: boolean;
  /** The entry offered for the text typed so far (undefined: not a name); shown unless already listed. */
  typed: (text: string) => Choice | undefined;
  /** The typed entry heads the list rather than ending it. */
  typedFirst?: boolean;
  /** Enter with no entry left takes the text itself. */
  orText?: boolean;
}

/** Undefined when dismissed. A typed name that is not in the vault yet is offered too (a first checkpoint creates it). */
export async function pickProject(host: BatonHost, placeholder: string): Promise<string | undefined> {
  const scopes = await host.session.baton.scopes().catch(() => [] as string[]);
  const current = host.project.current;
  const detected = host.project.detected;
  const items: Choice[] = scopes.map((scope) => ({
    label: scope,
    description: [scope === detected ? 'this workspace' : '', scope === current ? 'current' : ''].filter(Boolean).join(' · ') || undefined,
    iconPath: new vscode.ThemeIcon(scope.includes('/') ? 'git-branch' : 'project'),
    value: scope,
  }));
  if (detected && !scopes.includes(detected)) items.unshift({ label: detected, description: 'this workspace · no sessions yet', value: detected });
  // The workspace's own project and its worktrees first, then the rest by name.
  const mine = (s: string): number => (detected && rootProject(s) === rootProject(detected) ? 0 : 1);
  items.sort((a, b) => mine(a.value) - mine(b.value) || a.value.localeCompare(b.value));

  return pickOrType({
    placeholder,
    items,
    matchOnDescription: true,
    typed: (text) => {
      let scope: string | undefined;
      try {
        scope = text.trim() ? safeScope(text) : undefined;
      } catch {
        scope = undefined;
      }
      return scope ? { label: scope, description: 'new project', value: scope } : undefined;
    },
  });
}

/** The value of the entry accepted; undefined when dismissed. */
export function pickOrType(o: PickOrType): Promise<string | undefined> {
  const qp = vscode.window.createQuickPick<Choice>();
  qp.title = o.title;
  qp.placeholder = o.placeholder;
  qp.matchOnDescription = o.matchOnDescription ?? false;
  qp.items = o.items;
  return new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (v: string | undefined): void => {
      if (done) return;
      done = true;
      resolve(v);
      qp.dispose();
    };
    qp.onDidChangeValue((text) => {
      const t = o.typed(text);
      qp.items = !t || o.items.some((i) => i.value === t.value) ? o.items : o.typedFirst ? [t, ...o.items] : [...o.items, t];
    });
    qp.onDidAccept(() => finish(qp.selectedItems[0]?.value ?? (o.orText ? str(qp.value) : undefined)));
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}
