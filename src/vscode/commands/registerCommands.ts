// Binds every command id of the manifest to its handler. The handlers live in
// small classes by subject; this is the one list to check against package.json.
import * as vscode from 'vscode';
import type { BatonHost } from '../batonHost';
import { ConnectCommands } from '../connect/connectCommands';
import type { ConnectDocuments } from '../connect/connectDocuments';
import { PathCommand } from '../connect/pathCommand';
import type { FileTouches } from '../editor/fileTouches';
import type { HandoverDocuments } from '../handoverDocuments';
import { Commands } from '../ids';
import type { Log } from '../log';
import type { TranscriptDocuments } from '../transcriptDocuments';
import { ClaudeCodeCommands } from './claudeCodeCommands';
import type { ClaimChecks } from '../claimChecks';
import { ImportCommand } from './importCommand';
import { RerunVerification } from './rerunVerification';
import { NavigationCommands } from './navigationCommands';
import { SearchCommand } from './searchCommand';
import { SessionCommands } from './sessionCommands';
import { SyncCommands } from './syncCommands';
import { ThreadCommands } from './threadCommands';
import type { SyncController } from '../sync/syncController';
import type { TerminalCommands } from '../terminalCommands';
import type { CheckpointForms } from './checkpointForms';
import { VaultCommands } from './vaultCommands';
import { WriteCommands } from './writeCommands';

export interface CommandDeps {
  host: BatonHost;
  files: FileTouches;
  docs: HandoverDocuments;
  transcripts: TranscriptDocuments;
  previews: ConnectDocuments;
  /** Called after Connect, Disconnect, Refresh Launcher or Install in PATH wrote (the Agents view refreshes). */
  connected?: () => void;
  /** The extension's folder: the launcher runs its dist/cli.js. */
  extensionPath: string;
  log: Log;
  sync: SyncController;
  /** Baton: Toggle Agent Blame (owned by the editor's agent blame). */
  toggleAgentBlame: () => unknown;
  forms: CheckpointForms;
  terminals: TerminalCommands;
  /** The claims' checks Re-run Verification asks whether a claim is stale. */
  claims: ClaimChecks;
}

export function registerCommands({
  host,
  files,
  docs,
  transcripts,
  previews,
  connected,
  extensionPath,
  log,
  sync,
  toggleAgentBlame,
  forms,
  terminals,
  claims,
}: CommandDeps): vscode.Disposable[] {
  const write = new WriteCommands(host, log, forms, terminals);
  const sessions = new SessionCommands(host, docs, log);
  const nav = new NavigationCommands(host, files, log);
  const vault = new VaultCommands(host, log);
  const claude = new ClaudeCodeCommands(host, transcripts, log);
  const connect = new ConnectCommands(host, previews, log, connected);
  const onPath = new PathCommand(extensionPath, log, connected);
  const syncing = new SyncCommands(host, sync, log);
  const search = new SearchCommand(host, log);
  const past = new ImportCommand(host, log);
  const verify = new RerunVerification(host, claims, extensionPath, log);
  const thread = new ThreadCommands(host, previews, log);
  const handlers: Record<(typeof Commands)[keyof typeof Commands], (...args: unknown[]) => unknown> = {
    [Commands.commitCheckpoint]: write.commit,
    [Commands.handOff]: write.handOff,
    [Commands.addNote]: write.addNote,
    [Commands.resume]: sessions.resume,
    [Commands.copyHandover]: sessions.copyHandover,
    [Commands.closeAbandoned]: sessions.closeAbandoned,
    [Commands.showFileCheckpoints]: nav.showFileCheckpoints,
    [Commands.openCheckpoint]: nav.openCheckpoint,
    [Commands.openPlan]: nav.openPlan,
    [Commands.switchProject]: nav.switchProject,
    [Commands.refresh]: vault.refresh,
    [Commands.rebuildIndex]: vault.rebuildIndex,
    [Commands.chooseVault]: vault.chooseVault,
    [Commands.showLog]: vault.showLog,
    [Commands.resumeInClaudeCode]: claude.resumeInClaudeCode,
    [Commands.openTranscript]: claude.openTranscript,
    [Commands.connectAgent]: connect.connectAgent,
    [Commands.disconnectAgent]: connect.disconnectAgent,
    [Commands.installInPath]: onPath.installInPath,
    [Commands.refreshLauncher]: onPath.refreshLauncher,
    [Commands.syncVault]: syncing.syncVault,
    [Commands.shareVault]: syncing.shareVault,
    [Commands.search]: search.search,
    [Commands.toggleAgentBlame]: toggleAgentBlame,
    [Commands.showCheckpoints]: nav.showCheckpoints,
    [Commands.commitForm]: forms.commitActive,
    [Commands.discardForm]: forms.discardActive,
    [Commands.importPastSessions]: past.importPastSessions,
    [Commands.rerunVerification]: verify.rerunVerification,
    [Commands.shareThread]: thread.shareThread,
    [Commands.stopSharingThread]: thread.stopSharingThread,
  };
  return Object.entries(handlers).map(([id, handler]) => vscode.commands.registerCommand(id, handler));
}
