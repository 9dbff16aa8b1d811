// Binds every command id of the manifest to its handler. The handlers live in
// small classes by subject; this is the one list to check against package.json.
import * as vscode from 'vscode';
import type { BatonHost } from '../batonHost';
import type { FileTouches } from '../editor/fileTouches';
import type { HandoverDocuments } from '../handoverDocuments';
import { Commands } from '../ids';
import type { Log } from '../log';
import type { TranscriptDocuments } from '../transcriptDocuments';
import { ClaudeCodeCommands } from './claudeCodeCommands';
import { NavigationCommands } from './navigationCommands';
import { SessionCommands } from './sessionCommands';
import { VaultCommands } from './vaultCommands';
import { WriteCommands } from './writeCommands';

export function registerCommands(host: BatonHost, files: FileTouches, docs: HandoverDocuments, transcripts: TranscriptDocuments, log: Log): vscode.Disposable[] {
  const write = new WriteCommands(host, log);
  const sessions = new SessionCommands(host, docs, log);
  const nav = new NavigationCommands(host, files, log);
  const vault = new VaultCommands(host, log);
  const claude = new ClaudeCodeCommands(host, transcripts, log);
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
  };
  return Object.entries(handlers).map(([id, handler]) => vscode.commands.registerCommand(id, handler));
}
