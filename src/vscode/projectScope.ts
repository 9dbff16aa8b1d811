// Which project the person is in: the scope of the workspace folder (by the
// contract's marker / main-worktree / folder-name rule), unless they switched
// to another one for this workspace with Switch Project.
import * as vscode from 'vscode';
import { safeScope } from '../core/names';
import { scopeOfFolder } from '../app/scope';
import { Disposable } from './lifecycle';

const OVERRIDE_KEY = 'baton.projectOverride';

export class ProjectScope extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;
  private readonly byFolder = new Map<string, string | undefined>();

  constructor(private readonly state: vscode.Memento) {
    super();
    this.register(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.byFolder.clear();
        this.emitter.fire();
      }),
    );
  }

  /** The scope the views and commands act on, or undefined outside any project (no folder open, home). */
  get current(): string | undefined {
    return this.overridden ?? this.detected;
  }

  /** The scope of the first workspace folder. */
  get detected(): string | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder ? this.ofFolder(folder) : undefined;
  }

  get overridden(): string | undefined {
    return this.state.get<string>(OVERRIDE_KEY) || undefined;
  }

  /** The scope of the workspace folder holding `uri` (a file's own project, in a multi-root workspace). */
  ofUri(uri: vscode.Uri): string | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder ? this.ofFolder(folder) : undefined;
  }

  /** Switches for this workspace; undefined goes back to the detected project. */
  async switchTo(scope: string | undefined): Promise<void> {
    await this.state.update(OVERRIDE_KEY, scope && scope !== this.detected ? safeScope(scope) : undefined);
    this.emitter.fire();
  }

  private ofFolder(folder: vscode.WorkspaceFolder): string | undefined {
    const key = folder.uri.toString();
    if (!this.byFolder.has(key)) {
      let scope: string | undefined;
      try {
        scope = (folder.uri.scheme === 'file' ? scopeOfFolder(folder.uri.fsPath) : null) ?? undefined;
      } catch {
        // A folder named only with symbols has no project; the views then ask to switch to one.
        scope = undefined;
      }
      this.byFolder.set(key, scope);
    }
    return this.byFolder.get(key);
  }
}
