// `baton_why` with a line or range, for Copilot: the session that wrote those
// lines, what it ruled out and decided, its next step. A relative path is the
// workspace folder's; git runs only where it may (a trusted workspace).
import * as path from 'path';
import * as vscode from 'vscode';
import type { Baton } from '../core/baton';
import { renderLineWhy } from '../core/blameText';
import { whyLines } from '../app/blame';
import { gitAllowed } from './config';

export async function whyOfLines(baton: Baton, file: string, start: number, end: number | undefined): Promise<string> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const absolute = path.isAbsolute(file) ? file : path.resolve(folder, file);
  const { report, found } = await whyLines(baton, absolute, { start: Math.floor(start), end: end === undefined ? undefined : Math.floor(end) }, { enabled: gitAllowed() });
  return renderLineWhy(report.file, { start, end: end ?? start }, found, Math.floor(Date.now() / 1000), report.nothing);
}
