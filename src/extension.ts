// The composition root: adapters -> core -> VS Code layer. Two lifetimes: what
// lives as long as the extension (views, commands, editor surfaces) is built
// here; what lives as long as one vault folder (core, index, watcher) is the
// BatonHost's VaultSession, rebuilt when `baton.vault` changes.
//
// Activation returns without touching the vault: the first look at it is
// scheduled after, so a window opening with Baton's views does not wait on a
// vault scan.
import type * as vscode from 'vscode';
import type { BatonApi } from './vscode/api';
import { BatonHost } from './vscode/batonHost';
import { ClaimChecks } from './vscode/claimChecks';
import { CheckpointForms } from './vscode/commands/checkpointForms';
import { registerCommands } from './vscode/commands/registerCommands';
import { ConnectDocuments } from './vscode/connect/connectDocuments';
import { scheduleLauncherRefresh } from './vscode/connect/launcherRefresh';
import { AgentBlameFeature } from './vscode/editor/agentBlameFeature';
import { EditorClock } from './vscode/editor/editorClock';
import { EditorController } from './vscode/editor/editorController';
import { FileTouches } from './vscode/editor/fileTouches';
import { HandoverDocuments } from './vscode/handoverDocuments';
import { registerLmTools } from './vscode/lmTools';
import { registerMcpProvider } from './vscode/mcpProvider';
import { createLog } from './vscode/log';
import { ProjectScope } from './vscode/projectScope';
import { StatusBar } from './vscode/statusBar';
import { SyncController } from './vscode/sync/syncController';
import { TerminalCommands } from './vscode/terminalCommands';
import { TranscriptDocuments } from './vscode/transcriptDocuments';
import { BatonViews } from './vscode/views/views';
import { workspaceCommitPlace } from './vscode/workspaceGit';

let host: BatonHost | undefined;

export function activate(context: vscode.ExtensionContext): BatonApi {
  const log = createLog();
  const project = new ProjectScope(context.workspaceState);
  host = new BatonHost(log, project);
  const files = new FileTouches(host);
  const docs = new HandoverDocuments();
  const transcripts = new TranscriptDocuments();
  const previews = new ConnectDocuments();
  // A checkpoint's claims judged fresh or stale, for the trees, both hovers and Re-run Verification.
  const claims = new ClaimChecks(host);
  const views = new BatonViews(host, files, log, claims);
  const status = new StatusBar(host, log);
  const sync = new SyncController(host, log);
  // One "now" for the lens and the blame annotation beside it, ticking each minute and on every vault change.
  const clock = new EditorClock(undefined, [host.onDidChange]);
  const editor = new EditorController(host, files, log, clock, claims);
  const blame = new AgentBlameFeature(host, log, clock, claims);
  const forms = new CheckpointForms(context.globalStorageUri, host.context, log);
  const terminals = new TerminalCommands();
  context.subscriptions.push(
    claims,
    forms,
    terminals,
    log,
    project,
    host,
    docs,
    transcripts,
    previews,
    views,
    status,
    sync,
    clock,
    editor,
    blame,
    ...registerCommands({
      host,
      files,
      docs,
      transcripts,
      previews,
      connected: () => views.agents.refresh(),
      extensionPath: context.extensionPath,
      log,
      sync,
      toggleAgentBlame: blame.toggle,
      forms,
      terminals,
      claims,
    }),
  );
  // Agent surfaces (feature-detected inside: older VS Code builds get none).
  // They ask the host each time, since the core is rebuilt when the vault moves.
  // Each is optional: one an editor build refuses must not take the views down.
  const h = host;
  const optional = (what: string, register: () => unknown): void => {
    try {
      register();
    } catch (err) {
      log.error(`${what} not available in this VS Code`, err);
    }
  };
  // Copilot's checkpoints record the same git state Commit Checkpoint does; in Restricted Mode git is not run.
  optional('Language-model tools', () =>
    registerLmTools(
      context,
      () => h.session.baton,
      () => h.project.current,
      {
        place: (scope) => workspaceCommitPlace(h.project, scope),
      },
    ),
  );
  optional('The MCP server provider', () => registerMcpProvider(context, { vault: () => h.session.root, onDidChange: h.onDidChangeVault }));

  const first = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => h.ready());
  first.catch((err) => log.error('The first look at the vault failed', err));
  // After activation returns, like the vault's first look; never throws.
  const launcher = scheduleLauncherRefresh(context, log);
  return {
    ready: () => first,
    launcher: () => launcher,
    get vaultRoot() {
      return h.session.root;
    },
    get project() {
      return h.project.current;
    },
    get vaultState() {
      return h.state;
    },
    contextKey: (key) => h.context.get(key),
    loaded: () => h.loaded(),
    views: { projects: views.projects, checkpoints: views.checkpoints, abandoned: views.abandoned, plans: views.plans, thisFile: views.thisFile, agents: views.agents },
    get threadReads() {
      return views.projects.threadReads;
    },
    onDidRefresh: h.onDidChange,
    get statusText() {
      return status.text;
    },
    get syncStatusText() {
      return sync.text;
    },
    blame,
    clock,
    onDidChangeLenses: editor.onDidChangeLenses,
  };
}

/** Saves the index so the next start rescans less; the host's disposal (by subscriptions) follows. */
export async function deactivate(): Promise<void> {
  await host?.flush();
  host = undefined;
}
