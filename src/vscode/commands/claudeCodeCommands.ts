// Commands of a checkpoint bound to a Claude Code session: Resume in Claude
// Code (an integrated terminal in the session's folder running `claude
// --resume <id>`) and Open Transcript. Both take the checkpoint's slug (a
// tree node or a hover link carries it) and read the id from the vault file
// itself and the folder and transcript from this machine's session binding
// (app/sessionPlace.ts), never from the argument: a hover
// link's arguments come from a URI, and what reaches a shell must be what the
// vault says, checked here.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { sessionPlace } from '../../app/sessionPlace';
import { claudeResumeLine, claudeSessionOf } from '../../core/claudeSession';
import { refused } from '../../core/errors';
import type { Checkpoint } from '../../core/model';
import type { BatonHost } from '../batonHost';
import { CLAUDE_TERMINAL } from '../ids';
import type { Log } from '../log';
import type { TranscriptDocuments } from '../transcriptDocuments';
import { TRANSCRIPT_LIMIT } from '../transcriptDocuments';
import { showFailure, slugOf } from './args';

export interface ClaudeResumeResult {
  /** The line sent to the terminal (tests cannot read a terminal's input back). */
  commandLine?: string;
  /** The folder the terminal was opened in; undefined leaves it to VS Code. */
  cwd?: string;
  refused?: string;
}

export interface TranscriptResult {
  editor?: vscode.TextEditor;
  refused?: string;
}

const isDir = (p: string): Promise<boolean> =>
  fs.promises.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

export class ClaudeCodeCommands {
  constructor(
    private readonly host: BatonHost,
    private readonly transcripts: TranscriptDocuments,
    private readonly log: Log,
  ) {}

  /**
   * Opens a "Claude Code" terminal and types `claude --resume <id>`. Refuses an
   * id that is not a plain id (it comes from a shared vault and goes into a
   * shell), and refuses in Restricted Mode, where Baton starts no programs.
   */
  resumeInClaudeCode = async (arg?: unknown): Promise<ClaudeResumeResult> => {
    try {
      const cp = await this.checkpointOf(arg);
      const session = claudeSessionOf(cp);
      if (!session) throw refused(`Checkpoint ${cp.session} is not bound to a Claude Code session.`);
      const commandLine = claudeResumeLine(session.id);
      if (!vscode.workspace.isTrusted) {
        throw refused('Resume in Claude Code starts an agent that runs commands: trust this workspace first (Restricted Mode starts no programs).');
      }
      const cwd = await this.folderFor(cp, sessionPlace(this.host.session.root, cp).cwd);
      const terminal = vscode.window.createTerminal({ name: CLAUDE_TERMINAL, cwd, iconPath: new vscode.ThemeIcon('terminal') });
      terminal.show();
      terminal.sendText(commandLine, true);
      this.log.info(`Resumed Claude Code session ${session.id} of ${cp.slug} in ${cwd ?? 'the default folder'}`);
      return { commandLine, cwd };
    } catch (err) {
      return { refused: showFailure(this.log, 'Resuming in Claude Code', err) };
    }
  };

  /** Opens the checkpoint's JSONL transcript read-only; says so plainly when there is none to open. */
  openTranscript = async (arg?: unknown): Promise<TranscriptResult> => {
    try {
      const cp = await this.checkpointOf(arg);
      const file = sessionPlace(this.host.session.root, cp).transcript;
      if (!file) throw refused(`Checkpoint ${cp.session} records no transcript.`);
      // The path comes from a shared vault: only an absolute path to a JSONL file, never `~/.ssh/…`.
      if (!path.isAbsolute(file) || path.extname(file).toLowerCase() !== '.jsonl') {
        throw refused(`The transcript of ${cp.session} is not an absolute path to a .jsonl file: ${file}`);
      }
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (!stat?.isFile()) throw refused(`The transcript of ${cp.session} is not on this machine (${file}): it may have been recorded elsewhere or deleted.`);
      if (stat.size > TRANSCRIPT_LIMIT) throw refused(`The transcript ${file} is ${Math.round(stat.size / 1048576)} MB, too large to open here.`);
      return { editor: await this.transcripts.show(file) };
    } catch (err) {
      return { refused: showFailure(this.log, 'Opening the transcript', err) };
    }
  };

  private async checkpointOf(arg: unknown): Promise<Checkpoint> {
    const slug = slugOf(arg);
    const cp = slug ? await this.host.session.checkpoint(slug) : null;
    if (!cp) throw refused(`Baton: no such checkpoint in the vault${slug ? ` (${slug})` : ''}.`);
    return cp;
  }

  /**
   * The session's own folder when it exists here (`claude --resume` finds a
   * session by the folder it ran in); else the workspace folder that is the
   * checkpoint's project, else the first one, and the person is told.
   */
  private async folderFor(cp: Checkpoint, recorded: string): Promise<string | undefined> {
    if (recorded && path.isAbsolute(recorded) && (await isDir(recorded))) return recorded;
    const folders = vscode.workspace.workspaceFolders ?? [];
    const folder = folders.find((f) => this.host.project.ofUri(f.uri) === cp.project) ?? folders[0];
    const fallback = folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
    if (recorded) {
      void vscode.window.showWarningMessage(
        `The session's folder ${recorded} is not on this machine; Claude Code was started in ${fallback ?? 'the default folder'} and may not find the session there.`,
      );
    }
    return fallback;
  }
}
