// "Which checkpoints touched this file", as the editor surfaces and the This
// File view ask it: from the index (through the session's per-file cache),
// with the path given relative to its workspace folder so the contract's
// whole-segment matching has the most to go on.
import * as path from 'path';
import * as vscode from 'vscode';
import type { Touch } from '../../core/model';
import { relevantTouches } from '../../core/lensText';
import type { BatonHost } from '../batonHost';

export interface FileQuery {
  /** What is asked of the index: workspace-relative when possible, else absolute. */
  query: string;
  /** The file's folder in the workspace, where git is asked about later commits. */
  folder: vscode.WorkspaceFolder | undefined;
  /** The project the file belongs to (its folder's), else the current one. */
  project: string | undefined;
}

export class FileTouches {
  constructor(private readonly host: BatonHost) {}

  /** Undefined for what is not a file on disk, or lies in the vault itself (a checkpoint would describe itself). */
  queryOf(uri: vscode.Uri): FileQuery | undefined {
    if (uri.scheme !== 'file' || this.host.state !== 'ready') return undefined;
    if (this.host.session.contains(uri.fsPath)) return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const rel = folder ? path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/') : '';
    return {
      query: rel && !rel.startsWith('..') ? rel : uri.fsPath,
      folder,
      project: this.host.project.ofUri(uri) ?? this.host.project.current,
    };
  }

  /** Newest first; [] for files nothing touched (the common case, answered from the cache). */
  async of(uri: vscode.Uri): Promise<Touch[]> {
    const q = this.queryOf(uri);
    if (!q) return [];
    return relevantTouches(await this.host.session.why(q.query), q.project);
  }
}
