// What `activate()` returns: a small API for the integration tests (and any
// extension that wants Baton's views' data) to read what the views hold
// without scraping the DOM, and to wait for the first look at the vault.
import type * as vscode from 'vscode';
import type { AgentBlameView } from './editor/agentBlameFeature';
import type { EditorNow } from './editor/editorClock';
import type { AgentsNode } from './views/agentNodes';
import type { Node } from './views/nodes';

export interface BatonApi {
  /** Resolves after the first refresh (activation itself does not wait for the vault). */
  ready(): Promise<void>;
  /** Resolves once activation's launcher refresh ran: the launcher's path, or undefined when it failed (logged). */
  launcher(): Promise<string | undefined>;
  /** The vault folder in use. */
  readonly vaultRoot: string;
  /** The scope the views follow. */
  readonly project: string | undefined;
  /** `loading` until a look at the vault (the first, after a vault switch, a rebuild) has answered. */
  readonly vaultState: string;
  /** Resolves once the current look at the vault has answered. */
  loaded(): Promise<void>;
  /** What Baton last set a context key to (VS Code cannot read one back): what the `when` clauses and the walkthrough see. */
  contextKey(key: string): string | boolean | undefined;
  readonly views: {
    /** The Checkpoints view's tree: every project, the current one open on its checkpoints. */
    projects: vscode.TreeDataProvider<Node>;
    /** The current scope's checkpoints, as that tree lists them under it. */
    checkpoints: vscode.TreeDataProvider<Node>;
    abandoned: vscode.TreeDataProvider<Node>;
    plans: vscode.TreeDataProvider<Node>;
    /** The Explorer's File Checkpoints view. */
    thisFile: vscode.TreeDataProvider<Node>;
    agents: vscode.TreeDataProvider<AgentsNode>;
  };
  /**
   * How many background reads of a project's shared-thread state (Baton's git)
   * have started: a tree drawn while git may not run starts none.
   */
  readonly threadReads: number;
  /** Fires after the views were told to refresh (a vault change, a project switch). */
  readonly onDidRefresh: vscode.Event<unknown>;
  /** The status bar's text as shown. */
  readonly statusText: string;
  /** The sync item's text as shown ('' when hidden: the vault is not shared, or git may not run). */
  readonly syncStatusText: string;
  /** Agent blame as shown: the current-line annotation, its status bar text, a toggled file's blocks. */
  readonly blame: AgentBlameView;
  /** The one "now" of the CodeLens and the blame annotation; `tick(at)` moves it as the minute's tick does. */
  readonly clock: EditorNow;
  /** Fires whenever the CodeLenses are told to ask again (a vault change, a tick). */
  readonly onDidChangeLenses: vscode.Event<void>;
}
