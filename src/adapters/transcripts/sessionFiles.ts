// Where each agent keeps its past sessions on this machine, for `baton
// import`; each path is cited in its reader (claudePast.ts, codexPast.ts,
// geminiPast.ts, copilotPast.ts) and in src/adapters/agents/FACTS.md:
//   Claude Code  <CLAUDE_CONFIG_DIR or ~/.claude>/projects/*/*.jsonl
//   Codex        <CODEX_HOME or ~/.codex>/sessions/**/rollout-*.jsonl
//   Gemini CLI   <GEMINI_CLI_HOME or ~>/.gemini/tmp/*/chats/session-*.json[l]
//   Copilot CLI  <COPILOT_HOME or ~/.copilot>/session-state/*/events.jsonl
//   VS Code      <user data>/User/workspaceStorage/*/chatSessions/*.json[l]
//                (Copilot Chat; vscodeCopilotPast.ts), for Code and Code - Insiders
//   Cursor       <user data>/Cursor/User/globalStorage/state.vscdb (SQLite;
//                cursorPast.ts lists and reads its chats)
// A folder that cannot be listed is reported, never fatal; links are not
// followed (a link out of an agent's folder is nobody's session).
import * as fs from 'fs';
import * as path from 'path';
import type { ImportAgent } from '../../core/importAgents';
import { geminiHome } from '../agents/geminiSettings';
import { workspaceFolder } from './vscodeCopilotPast';

/** Codex's folder of rollouts under CODEX_HOME: the agent's, not the vault's `sessions/`. */
const CODEX_SESSIONS = 'sessions';

export interface SessionFile {
  agent: ImportAgent;
  file: string;
  /** Last modified, unix seconds: a session file is written to its end, so this is no earlier than its last record. */
  mtime: number;
  /** The session id its name gives (Claude Code's file, Copilot's folder), "" when it gives none. */
  idHint: string;
  /** Gemini's project folder name, where its recording names no folder. */
  projectHint: string;
  /** The folder the session ran in where its file does not say (VS Code's workspace.json); "" when unknown. */
  cwdHint: string;
}

export interface Unlisted {
  source: string;
  reason: string;
}

const abs = (v: string | undefined): string => (v?.trim() && path.isAbsolute(v.trim()) ? path.resolve(v.trim()) : '');

/** Each agent's own folder, as its environment moves it. */
export function agentHomes(home: string, env: NodeJS.ProcessEnv): Record<Exclude<ImportAgent, 'vscode-copilot' | 'cursor'>, string> {
  return {
    'claude-code': abs(env.CLAUDE_CONFIG_DIR) || path.join(home, '.claude'),
    codex: abs(env.CODEX_HOME) || path.join(home, '.codex'),
    gemini: path.join(geminiHome(home, env), '.gemini'),
    copilot: abs(env.COPILOT_HOME) || path.join(home, '.copilot'),
  };
}

/**
 * The `User` folders of an editor built on VS Code, as VS Code finds its own
 * (microsoft/vscode src/vs/platform/environment/node/userDataPath.ts):
 * VSCODE_PORTABLE's user-data, else VSCODE_APPDATA, else APPDATA on Windows,
 * ~/Library/Application Support on macOS, XDG_CONFIG_HOME or ~/.config
 * elsewhere; then the product's folder (Code, Code - Insiders, Cursor).
 */
export function editorUserDirs(products: readonly string[], home: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string[] {
  const portable = abs(env.VSCODE_PORTABLE);
  if (portable) return [path.join(portable, 'user-data', 'User')];
  const appData =
    abs(env.VSCODE_APPDATA) ||
    (platform === 'win32'
      ? abs(env.APPDATA) || path.join(home, 'AppData', 'Roaming')
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : abs(env.XDG_CONFIG_HOME) || path.join(home, '.config'));
  return products.map((product) => path.join(appData, product, 'User'));
}

/** VS Code's workspaceStorage folders, stable first. */
export function vscodeWorkspaceStorages(home: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string[] {
  return editorUserDirs(['Code', 'Code - Insiders'], home, env, platform).map((u) => path.join(u, 'workspaceStorage'));
}

function list(dir: string, missing: Unlisted[]): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') missing.push({ source: dir, reason: `could not be listed (${code ?? String(err)})` });
    return [];
  }
}

function file(agent: ImportAgent, f: string, idHint = '', projectHint = '', cwdHint = ''): SessionFile | null {
  try {
    return { agent, file: f, mtime: Math.floor(fs.statSync(f).mtimeMs / 1000), idHint, projectHint, cwdHint };
  } catch {
    return null;
  }
}

function claudeFiles(projects: string, out: SessionFile[], missing: Unlisted[]): void {
  for (const p of list(projects, missing)) {
    if (!p.isDirectory()) continue;
    for (const f of list(path.join(projects, p.name), missing)) {
      if (f.isFile() && f.name.endsWith('.jsonl')) out.push(file('claude-code', path.join(projects, p.name, f.name), f.name.slice(0, -6)) as SessionFile);
    }
  }
}

function codexFiles(dir: string, out: SessionFile[], missing: Unlisted[], depth = 0): void {
  for (const e of list(dir, missing)) {
    const f = path.join(dir, e.name);
    if (e.isDirectory() && depth < 6) codexFiles(f, out, missing, depth + 1);
    else if (e.isFile() && /^rollout-.*\.jsonl$/.test(e.name)) out.push(file('codex', f) as SessionFile);
  }
}

function geminiFiles(tmp: string, out: SessionFile[], missing: Unlisted[]): void {
  for (const p of list(tmp, missing)) {
    if (!p.isDirectory()) continue;
    const chats = path.join(tmp, p.name, 'chats');
    for (const f of list(chats, missing)) {
      if (f.isFile() && /^session-.*\.jsonl?$/.test(f.name)) out.push(file('gemini', path.join(chats, f.name), '', p.name) as SessionFile);
    }
  }
}

function copilotFiles(state: string, out: SessionFile[], missing: Unlisted[]): void {
  for (const d of list(state, missing)) {
    if (!d.isDirectory()) continue;
    const f = file('copilot', path.join(state, d.name, 'events.jsonl'), d.name);
    if (f) out.push(f);
  }
}

/** The folder each agent keeps its sessions in under this home: where an import looks, as a person is told it. */
export function sessionFolders(home: string, env: NodeJS.ProcessEnv): Record<ImportAgent, string> {
  const homes = agentHomes(home, env);
  return {
    'claude-code': path.join(homes['claude-code'], 'projects'),
    codex: path.join(homes.codex, CODEX_SESSIONS),
    gemini: path.join(homes.gemini, 'tmp'),
    copilot: path.join(homes.copilot, 'session-state'),
    'vscode-copilot': vscodeWorkspaceStorages(home, env)[0],
    // One database, read by cursorPast.ts (asynchronously: sql.js), not listed here.
    cursor: path.join(editorUserDirs(['Cursor'], home, env)[0], 'globalStorage'),
  };
}

function vscodeFiles(storages: string[], out: SessionFile[], missing: Unlisted[]): void {
  for (const storage of storages) {
    for (const w of list(storage, missing)) {
      if (!w.isDirectory()) continue;
      const chats = path.join(storage, w.name, 'chatSessions');
      const sessions = list(chats, missing).filter((f) => f.isFile() && /\.jsonl?$/.test(f.name));
      if (!sessions.length) continue;
      const folder = workspaceFolder(path.join(storage, w.name, 'workspace.json'));
      for (const f of sessions) {
        const found = file('vscode-copilot', path.join(chats, f.name), f.name.replace(/\.jsonl?$/, ''), '', folder);
        if (found) out.push(found);
      }
    }
  }
}

/** The session files of `agents` under this home, oldest first (by mtime, then path: the same order every run). */
export function sessionFiles(agents: readonly ImportAgent[], home: string, env: NodeJS.ProcessEnv): { files: SessionFile[]; unlisted: Unlisted[] } {
  const folders = sessionFolders(home, env);
  const files: SessionFile[] = [];
  const unlisted: Unlisted[] = [];
  if (agents.includes('claude-code')) claudeFiles(folders['claude-code'], files, unlisted);
  if (agents.includes('codex')) codexFiles(folders.codex, files, unlisted);
  if (agents.includes('gemini')) geminiFiles(folders.gemini, files, unlisted);
  if (agents.includes('copilot')) copilotFiles(folders.copilot, files, unlisted);
  if (agents.includes('vscode-copilot')) vscodeFiles(vscodeWorkspaceStorages(home, env), files, unlisted);
  const kept = files.filter(Boolean);
  kept.sort((a, b) => a.mtime - b.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files: kept, unlisted };
}

/**
 * The folder a Gemini CLI project folder stands for: the `.project_root` file
 * Gemini keeps beside `chats/` (its first line, an absolute path), or "" when
 * there is none; the folder's name is then the project's name. Since
 * google-gemini/gemini-cli#17901 the folder is `tmp/<project name>/` (before,
 * a hash of the root), with the root in `.project_root` and `projects.json`
 * (as farion1231/cc-switch#2240 reads them); not a documented interface.
 */
export function geminiProjectRoot(sessionFile: string): string {
  try {
    const root = fs
      .readFileSync(path.join(path.dirname(path.dirname(sessionFile)), '.project_root'), 'utf8')
      .split('\n')[0]
      .trim();
    return path.isAbsolute(root) ? root : '';
  } catch {
    return '';
  }
}
