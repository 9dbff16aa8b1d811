// A past VS Code Copilot Chat session, from the file VS Code keeps of it in
// `<user data>/User/workspaceStorage/<workspace id>/chatSessions/`
// (microsoft/vscode src/vs/workbench/contrib/chat/common/chatSessionStore.ts:
// `joinPath(workspaceStorageHome, workspaceId, 'chatSessions')`, one file a
// session named by its id). Two shapes:
//   - `<id>.json`: one ISerializableChatData document, written whole
//     (chatSessionStore.ts writeSession, `JSON.stringify(session)`); version 3,
//     or 2 and the unversioned 1 that normalizeSerializableChatData upgrades
//     (chat/common/chatModel.ts): {sessionId, creationDate, lastMessageDate,
//     requests: [{requestId, message: string | {text, parts}, timestamp,
//     response: [parts], editedFileEvents?: [{uri}]}]};
//   - `<id>.jsonl`, newer: the same object as a log of its changes
//     (chat/common/model/objectMutationLog.ts): a line `{kind: 0, v}` is the
//     whole state, then `{kind: 1, k: path, v}` sets a property, `{kind: 2, k,
//     v?, i?}` cuts an array to `i` and pushes `v`, `{kind: 3, k}` deletes. The
//     state is rebuilt line by line; its size is the session's own.
// A response part is a markdown string `{value}` (no kind), or has a kind:
// `markdownContent` ({content: {value}}), `toolInvocationSerialized`
// ({toolSpecificData: {kind: 'terminal', commandLine: {original},
// terminalCommandState?: {exitCode}}}, the legacy `{command}`; chat/common/
// chatService.ts IChatTerminalToolInvocationData), `textEditGroup` ({uri}),
// `codeblockUri` ({uri, isEdit}); a uri is VS Code's UriComponents
// ({scheme, path, fsPath?}). The folder is the workspace's, from
// `workspace.json` beside `chatSessions/` (sessionFiles.ts).
import * as fs from 'fs';
import { fileURLToPath } from 'url';
import type { PastSession } from './pastSession';
import { answered, asked, edited, newSession, ran, seen, unknownType } from './pastSession';
import { jsonRecords } from './jsonlStream';
import { readForeignBytes } from '../foreignFile';
import { isObject, text } from './userWords';
import type { Json } from './userWords';

/** A `.json` session is one document, read whole: past this it is skipped, not read. */
export const MAX_JSON_SESSION_BYTES = 256 * 1024 * 1024;

const pathOfUri = (u: unknown): string => {
  if (typeof u === 'string') {
    if (!u.startsWith('file:')) return '';
    try {
      return fileURLToPath(u);
    } catch {
      return '';
    }
  }
  if (!isObject(u) || (u.scheme !== undefined && u.scheme !== 'file')) return '';
  return text(u.fsPath) || text(u.path);
};

function messageText(m: unknown): string {
  if (typeof m === 'string') return m;
  if (!isObject(m)) return '';
  if (typeof m.text === 'string') return m.text;
  return Array.isArray(m.parts) ? m.parts.map((p) => (isObject(p) ? text(p.text) : '')).join('') : '';
}

/** What the agent said in a response: its markdown parts, in order. */
function said(parts: unknown[]): string {
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p === 'string') out.push(p);
    else if (isObject(p) && p.kind === undefined) out.push(text(p.value));
    else if (isObject(p) && p.kind === 'markdownContent') out.push(isObject(p.content) ? text(p.content.value) : '');
  }
  return out.join('').trim();
}

function toolPart(s: PastSession, p: Json): void {
  const data = isObject(p.toolSpecificData) ? p.toolSpecificData : {};
  if (data.kind !== 'terminal') return;
  const line = isObject(data.commandLine) ? text(data.commandLine.toolEdited) || text(data.commandLine.userEdited) || text(data.commandLine.original) : text(data.command);
  if (!line.trim()) return;
  const state = isObject(data.terminalCommandState) ? data.terminalCommandState : {};
  ran(s, line.trim(), typeof state.exitCode === 'number' ? state.exitCode : undefined);
}

function readRequest(s: PastSession, r: unknown): void {
  if (!isObject(r)) return unknownType(s, Array.isArray(r) ? '(a list where a request was)' : '(a request that is no object)');
  seen(s, r.timestamp);
  asked(s, messageText(r.message));
  const parts = Array.isArray(r.response) ? r.response : [];
  for (const p of parts) {
    if (!isObject(p)) continue;
    if (p.kind === 'toolInvocationSerialized') toolPart(s, p);
    else if (p.kind === 'textEditGroup' || (p.kind === 'codeblockUri' && p.isEdit === true)) edited(s, pathOfUri(p.uri));
  }
  for (const e of Array.isArray(r.editedFileEvents) ? r.editedFileEvents : []) if (isObject(e)) edited(s, pathOfUri(e.uri));
  answered(s, said(parts));
}

function readData(s: PastSession, data: unknown): void {
  if (!isObject(data) || !Array.isArray(data.requests)) {
    unknownType(s, '(no chat session: no requests)');
    return;
  }
  s.id = text(data.sessionId);
  seen(s, data.creationDate);
  for (const r of data.requests) readRequest(s, r);
  seen(s, data.lastMessageDate);
}

type Path = (string | number)[];

/** The container a log entry's path points into, and the last key; undefined when the path leads nowhere. */
function at(state: unknown, k: Path): { parent: Record<string | number, unknown>; key: string | number } | undefined {
  let cur = state;
  for (const step of k.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[step];
  }
  return cur !== null && typeof cur === 'object' && k.length ? { parent: cur as Record<string | number, unknown>, key: k[k.length - 1] } : undefined;
}

const isPath = (k: unknown): k is Path => Array.isArray(k) && k.every((x) => typeof x === 'string' || typeof x === 'number');

/** The session a mutation log leaves, entry by entry; an entry that fits no shape, or leads nowhere, is skipped and counted. */
function replay(s: PastSession, file: string): unknown {
  let state: unknown;
  for (const e of jsonRecords(file, s.tally)) {
    if (!isObject(e) || typeof e.kind !== 'number') {
      unknownType(s, '(a log entry without a kind)');
      continue;
    }
    if (e.kind === 0) {
      state = e.v;
      continue;
    }
    const where = isPath(e.k) ? at(state, e.k) : undefined;
    if (!where || e.kind > 3) {
      unknownType(s, e.kind > 3 ? `log entry kind ${e.kind}` : '(a log entry whose path leads nowhere)');
      continue;
    }
    if (e.kind === 1) where.parent[where.key] = e.v;
    else if (e.kind === 3) delete where.parent[where.key];
    else {
      const list = Array.isArray(where.parent[where.key]) ? (where.parent[where.key] as unknown[]) : [];
      if (typeof e.i === 'number') list.length = Math.min(list.length, Math.max(0, e.i));
      if (Array.isArray(e.v)) list.push(...(e.v as unknown[]));
      where.parent[where.key] = list;
    }
  }
  return state;
}

export function readVscodeCopilotSession(file: string): PastSession {
  const s = newSession();
  if (file.endsWith('.jsonl')) {
    readData(s, replay(s, file));
    return s;
  }
  const bytes = readForeignBytes(file, MAX_JSON_SESSION_BYTES);
  if (bytes === null) throw Object.assign(new Error(`ENOENT: no such file, open '${file}'`), { code: 'ENOENT' });
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    // VS Code writes the whole document at once: one that does not parse was cut off (a crash mid-write).
    s.tally.torn = true;
    return s;
  }
  readData(s, data);
  return s;
}

/** The folder a workspace's `workspace.json` names (`{"folder": "file:///…"}`), "" for a multi-root or remote workspace. */
export function workspaceFolder(workspaceJson: string): string {
  try {
    const v = JSON.parse(fs.readFileSync(workspaceJson, 'utf8')) as unknown;
    return isObject(v) ? pathOfUri(text(v.folder)) : '';
  } catch {
    return '';
  }
}
