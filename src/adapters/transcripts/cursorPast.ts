// Cursor's past chats (Composer and agent sessions), for `baton import`.
// Cursor keeps them in SQLite, not files: `<user data>/Cursor/User/
// globalStorage/state.vscdb` (user data as VS Code finds its own:
// sessionFiles.ts editorUserDirs), tables `ItemTable` and `cursorDiskKV`,
// both `(key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)` with JSON values.
// Not a documented interface; the shapes are as readers of it record them
// (michaeldhood/chatrxiv docs/cursor/storage-reference.md, composerData _v 10,
// bubbles _v 3; pppp606/cursor-efficiency docs/vscdbRelation.md, Cursor 0.50.5):
//   - `composerData:<composerId>`: {composerId, createdAt, lastUpdatedAt (unix
//     ms), createdOnBranch, fullConversationHeadersOnly: [{bubbleId, type}]},
//     or, older, the bubbles inline in `conversation`;
//   - `bubbleId:<composerId>:<bubbleId>`: {type: 1 the person, 2 the agent,
//     text, createdAt (ISO), toolFormerData?: {name, params | rawArgs (JSON
//     text), status, result}};
//   - a workspace's own `workspaceStorage/<id>/state.vscdb` lists its chats in
//     ItemTable `composer.composerData` ({allComposers: [{composerId}]}), and
//     its `workspace.json` names the folder (as VS Code's: vscodeCopilotPast.ts).
// The database is read with sql.js from its bytes, copied into memory: the
// person's file is never opened for writing nor locked, so a running Cursor
// is not disturbed (what it has not yet checkpointed from its WAL is not seen
// until it does). sql.js holds a database whole, so one over
// MAX_CURSOR_DB_BYTES is skipped with that reason.
import * as fs from 'fs';
import * as path from 'path';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../index/sqlJs';
import { readForeignBytes } from '../foreignFile';
import type { PastSession } from './pastSession';
import { answered, asked, edited, newSession, ran, seen, unknownType } from './pastSession';
import type { SessionFile, Unlisted } from './sessionFiles';
import { editorUserDirs } from './sessionFiles';
import { isObject, text } from './userWords';
import type { Json } from './userWords';
import { workspaceFolder } from './vscodeCopilotPast';

export const MAX_CURSOR_DB_BYTES = 1024 * 1024 * 1024;

const SHELL = /^(run_terminal_cmd|run_terminal_command|terminal)$/;
const EDIT = /^(edit_file|edit_file_v2|search_replace|write|delete_file|apply_patch|multi_edit|reapply)$/;

/** Cursor's user folder under this home (its global database is `globalStorage/state.vscdb` in it). */
export function cursorUserDir(home: string, env: NodeJS.ProcessEnv): string {
  return editorUserDirs(['Cursor'], home, env)[0];
}

function parse(v: unknown): unknown {
  const s = typeof v === 'string' ? v : v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : '';
  if (!s) return undefined;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

async function open(file: string, SQL: SqlJsStatic): Promise<Database> {
  const bytes = readForeignBytes(file, MAX_CURSOR_DB_BYTES);
  if (bytes === null) throw Object.assign(new Error(`ENOENT: no such file, open '${file}'`), { code: 'ENOENT' });
  return new SQL.Database(bytes);
}

function hasTable(db: Database, name: string): boolean {
  return db.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${name}'`).length > 0;
}

function value(db: Database, table: string, key: string): unknown {
  const st = db.prepare(`SELECT value FROM ${table} WHERE key = ?`);
  try {
    st.bind([key]);
    return st.step() ? parse(st.get()[0]) : undefined;
  } finally {
    st.free();
  }
}

/** The folder of each chat a workspace lists, by composer id. */
async function workspaceFolders(storage: string, SQL: SqlJsStatic, missing: Unlisted[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(storage, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const w of entries) {
    const dbFile = path.join(storage, w.name, 'state.vscdb');
    if (!w.isDirectory() || !fs.existsSync(dbFile)) continue;
    const folder = workspaceFolder(path.join(storage, w.name, 'workspace.json'));
    if (!folder) continue;
    let db: Database | undefined;
    try {
      db = await open(dbFile, SQL);
      const data = hasTable(db, 'ItemTable') ? value(db, 'ItemTable', 'composer.composerData') : undefined;
      for (const c of isObject(data) && Array.isArray(data.allComposers) ? data.allComposers : []) {
        if (isObject(c) && text(c.composerId)) out.set(text(c.composerId), folder);
      }
    } catch (err) {
      missing.push({ source: dbFile, reason: `could not be read, so its chats name no folder (${err instanceof Error ? err.message : String(err)})` });
    } finally {
      db?.close();
    }
  }
  return out;
}

function argsOf(tool: Json): Json {
  const a = isObject(tool.params) ? tool.params : (parse(tool.params) ?? parse(tool.rawArgs));
  return isObject(a) ? a : {};
}

function toolCall(s: PastSession, tool: Json): void {
  const name = text(tool.name);
  const args = argsOf(tool);
  if (EDIT.test(name)) edited(s, text(args.target_file) || text(args.file_path) || text(args.path) || text(args.relative_workspace_path));
  else if (SHELL.test(name) && text(args.command).trim()) {
    const cmd = ran(s, text(args.command).trim());
    const extra = isObject(tool.additionalData) ? tool.additionalData : {};
    if (tool.status === 'error' || extra.status === 'error') cmd.failed = true;
  }
}

function bubble(s: PastSession, b: unknown): void {
  if (!isObject(b)) return unknownType(s, '(a bubble that is no object)');
  seen(s, b.createdAt);
  if (b.type === 1) asked(s, text(b.text));
  else if (b.type === 2) {
    if (isObject(b.toolFormerData)) toolCall(s, b.toolFormerData);
    answered(s, b.text);
  } else unknownType(s, `bubble type ${String(b.type)}`);
}

/** One chat read from the global database; "" id when the record names none. */
function composerSession(db: Database, id: string, c: Json): PastSession {
  const s = newSession();
  s.id = text(c.composerId) || id;
  s.branch = text(c.createdOnBranch);
  seen(s, c.createdAt);
  const headers = Array.isArray(c.fullConversationHeadersOnly) ? c.fullConversationHeadersOnly : [];
  for (const h of headers) {
    const bid = isObject(h) ? text(h.bubbleId) : '';
    const b = bid ? value(db, 'cursorDiskKV', `bubbleId:${id}:${bid}`) : undefined;
    if (b === undefined) unknownType(s, '(a bubble missing or no JSON)');
    else bubble(s, b);
  }
  if (!headers.length && Array.isArray(c.conversation)) for (const b of c.conversation) bubble(s, b);
  seen(s, c.lastUpdatedAt);
  return s;
}

export interface CursorSessionFile extends SessionFile {
  /** Read already: a chat lives in a database, not a file of its own. */
  preRead: PastSession;
}

/**
 * Every chat in Cursor's global database as a session file of its own (the
 * database named as its file, the chat's id and last update as its id and
 * mtime), read now; a database that cannot be read is one reason, never fatal.
 */
export async function cursorSessionFiles(home: string, env: NodeJS.ProcessEnv): Promise<{ files: CursorSessionFile[]; unlisted: Unlisted[] }> {
  const user = cursorUserDir(home, env);
  const global = path.join(user, 'globalStorage', 'state.vscdb');
  const unlisted: Unlisted[] = [];
  const files: CursorSessionFile[] = [];
  if (!fs.existsSync(global)) return { files, unlisted };
  let SQL: SqlJsStatic;
  let db: Database | undefined;
  try {
    SQL = await loadSqlJs();
    db = await open(global, SQL);
    if (!hasTable(db, 'cursorDiskKV')) {
      unlisted.push({ source: global, reason: 'holds no cursorDiskKV table: no Cursor chats Baton knows how to read' });
      return { files, unlisted };
    }
  } catch (err) {
    db?.close();
    const code = (err as NodeJS.ErrnoException).code;
    unlisted.push({ source: global, reason: `could not be read (${typeof code === 'string' ? code : err instanceof Error ? err.message.split(global).join('it') : String(err)})` });
    return { files, unlisted };
  }
  try {
    const folders = await workspaceFolders(path.join(user, 'workspaceStorage'), SQL, unlisted);
    const st = db.prepare("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%' ORDER BY key");
    try {
      while (st.step()) {
        const [key, raw] = st.get();
        const id = String(key).slice('composerData:'.length);
        const c = parse(raw);
        const source = `${global}#${id}`;
        if (!isObject(c)) {
          unlisted.push({ source, reason: 'its record is no JSON object: skipped' });
          continue;
        }
        const s = composerSession(db, id, c);
        // A chat opened and never used holds no bubble: nothing happened in it.
        if (!s.task && !s.lastMessage && !s.unknown.size) continue;
        const mtime = s.ended || Math.floor(fs.statSync(global).mtimeMs / 1000);
        files.push({ agent: 'cursor', file: source, mtime, idHint: s.id, projectHint: '', cwdHint: folders.get(id) ?? '', preRead: s });
      }
    } finally {
      st.free();
    }
  } finally {
    db.close();
  }
  return { files, unlisted };
}
