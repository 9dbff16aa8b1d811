// Installing Baton's hooks into an agent's own settings, and taking them out
// again. Claude Code and Codex share one shape (event → matcher groups →
// command hooks); Cursor's is flat (event → commands) with a version number.
// Baton's entries are recognised by their command, so a person's own hooks,
// even on the same events, are never touched.
import * as path from 'path';
import { usage } from '../core/errors';
import { homeOf, projectRoot } from './projectDir';
import { backUp, isObject, readBackup, readSettings, restoreOrWrite, serialize, writeSettings, type JsonObject } from '../adapters/settingsFile';

export type HookAgent = 'claude-code' | 'codex' | 'cursor';

interface EventSpec {
  /** The agent's own name for the event. */
  key: string;
  /** Baton's event (`baton hook AGENT EVENT`). */
  event: 'session-start' | 'pre-compact' | 'post-tool-use' | 'session-end';
  matcher?: string;
}

interface AgentSpec {
  label: string;
  /** Relative to the project root or the home folder. */
  file: string;
  shape: 'nested' | 'flat';
  events: EventSpec[];
  note?: string;
}

export const AGENTS: Record<HookAgent, AgentSpec> = {
  'claude-code': {
    label: 'Claude Code',
    file: path.join('.claude', 'settings.json'),
    shape: 'nested',
    events: [
      { key: 'SessionStart', event: 'session-start' },
      { key: 'PreCompact', event: 'pre-compact' },
      // Only plan approvals: Claude Code then does not even start Baton for other tools.
      { key: 'PostToolUse', event: 'post-tool-use', matcher: 'ExitPlanMode' },
      { key: 'SessionEnd', event: 'session-end' },
    ],
  },
  codex: {
    label: 'Codex',
    file: path.join('.codex', 'hooks.json'),
    shape: 'nested',
    events: [{ key: 'SessionStart', event: 'session-start' }],
    note: 'Codex runs a new hook only after you trust it (/hooks); versions before hooks were on by default also need [features] codex_hooks = true in config.toml.',
  },
  cursor: {
    label: 'Cursor',
    file: path.join('.cursor', 'hooks.json'),
    shape: 'flat',
    events: [{ key: 'sessionStart', event: 'session-start' }],
  },
};

/** Baton's hook commands: `<anything ending in baton or cli.js> hook <agent> <event>`. */
const OURS = /(?:baton|cli\.js)["']?\s+(?:.*\s)?hook\s+(claude-code|codex|cursor)\s+(session-start|pre-compact|post-tool-use|session-end)\s*$/;

export function isOurs(command: unknown, agent?: HookAgent): boolean {
  if (typeof command !== 'string') return false;
  const m = OURS.exec(command);
  return m !== null && (agent === undefined || m[1] === agent);
}

export const hookCommand = (base: string, agent: HookAgent, event: string): string => `${base} hook ${agent} ${event}`;

export function parseAgent(name: string | undefined): HookAgent {
  if (name && name in AGENTS) return name as HookAgent;
  throw usage(`Which agent? One of: ${Object.keys(AGENTS).join(', ')}. e.g. baton hooks install claude-code`);
}

export interface InstallResult {
  file: string;
  changed: boolean;
  backup: string | null;
  outcome: 'installed' | 'unchanged' | 'restored' | 'removed' | 'written' | 'absent';
  note?: string;
}

function eventList(hooks: JsonObject, key: string, file: string): unknown[] {
  const list = hooks[key] ?? [];
  if (!Array.isArray(list)) throw usage(`${file}: "hooks.${key}" is not a list; fix it by hand first, Baton changed nothing.`);
  return list;
}

/** Ensures one Baton entry per event; returns whether anything changed. */
function addOurs(value: JsonObject, spec: AgentSpec, agent: HookAgent, base: string, file: string): boolean {
  if (value.hooks !== undefined && !isObject(value.hooks)) throw usage(`${file}: "hooks" is not an object; fix it by hand first, Baton changed nothing.`);
  const hooks = (value.hooks ??= {}) as JsonObject;
  let changed = false;
  for (const e of spec.events) {
    const command = hookCommand(base, agent, e.event);
    const list = eventList(hooks, e.key, file);
    const entries = spec.shape === 'flat' ? list : list.flatMap((g) => (isObject(g) && Array.isArray(g.hooks) ? g.hooks : []));
    const mine = entries.filter((h): h is JsonObject => isObject(h) && isOurs(h.command, agent) && OURS.exec(String(h.command))?.[2] === e.event);
    if (mine.length > 0) {
      // Already there: only a different command base (another install path) is updated.
      for (const h of mine) {
        if (h.command === command) continue;
        h.command = command;
        changed = true;
      }
      continue;
    }
    const entry = spec.shape === 'flat' ? { command } : { ...(e.matcher ? { matcher: e.matcher } : {}), hooks: [{ type: 'command', command }] };
    hooks[e.key] = [...list, entry];
    changed = true;
  }
  return changed;
}

/**
 * Whether to keep an event list (`key`) or the `hooks` object (`null`) that
 * removing Baton's entries left empty. By default nothing empty is kept; the
 * uninstaller also tries keeping exactly what the pre-install backup had, so a
 * person's own `"hooks": {}` or `"SessionStart": []` comes back as it was.
 */
type KeepEmpty = (key: string | null) => boolean;

/** Removes Baton's entries for `agent` (and any matcher group they alone filled); returns whether there were any. */
function removeOurs(value: JsonObject, spec: AgentSpec, agent: HookAgent, keepEmpty: KeepEmpty = () => false): boolean {
  if (!isObject(value.hooks)) return false;
  const hooks = value.hooks;
  let removed = false;
  for (const key of Object.keys(hooks)) {
    const list = hooks[key];
    if (!Array.isArray(list)) continue;
    const kept: unknown[] = [];
    let here = false;
    for (const item of list) {
      if (spec.shape === 'flat') {
        if (isObject(item) && isOurs(item.command, agent)) here = true;
        else kept.push(item);
        continue;
      }
      if (!isObject(item) || !Array.isArray(item.hooks)) {
        kept.push(item);
        continue;
      }
      const inner = item.hooks.filter((h) => !(isObject(h) && isOurs(h.command, agent)));
      if (inner.length === item.hooks.length) kept.push(item);
      else {
        here = true;
        if (inner.length > 0) kept.push({ ...item, hooks: inner });
      }
    }
    if (!here) continue;
    removed = true;
    if (kept.length === 0 && !keepEmpty(key)) delete hooks[key];
    else hooks[key] = kept;
  }
  if (removed && Object.keys(hooks).length === 0 && !keepEmpty(null)) delete value.hooks;
  return removed;
}

/** The file without Baton's entries: pruned, and shaped like the pre-install backup when there is one. */
function withoutOurs(value: JsonObject, spec: AgentSpec, agent: HookAgent, before: JsonObject | null): JsonObject[] {
  const ways: KeepEmpty[] = [() => false];
  if (before) {
    const hooks = isObject(before.hooks) ? before.hooks : null;
    ways.push((key) => (key === null ? hooks !== null : hooks !== null && Array.isArray(hooks[key])));
  }
  const out: JsonObject[] = [];
  for (const keepEmpty of ways) {
    const v = structuredClone(value);
    removeOurs(v, spec, agent, keepEmpty);
    out.push(v);
    // Baton adds Cursor's version number to a file that had none.
    if (spec.shape === 'flat' && v.version === 1 && before && before.version === undefined) {
      const rest = { ...v };
      delete rest.version;
      out.push(rest);
    }
  }
  return out;
}

/** What is left of a file Baton created: nothing, or Cursor's version number alone. */
const leftEmpty = (v: JsonObject): boolean => Object.keys(v).every((k) => k === 'version');

export function settingsPath(agent: HookAgent, base: string): string {
  return path.join(base, AGENTS[agent].file);
}

/**
 * Merges Baton's hooks into the agent's settings under `baseDir` (a project
 * root or the home folder). Running it twice changes nothing; the file as it
 * was before Baton's first entry is kept as `<file>.baton-backup`.
 */
export function installHooks(agent: HookAgent, baseDir: string, command = 'baton'): InstallResult {
  const spec = AGENTS[agent];
  const file = settingsPath(agent, baseDir);
  const current = readSettings(file);
  const value = structuredClone(current.value);
  const pristine = !removeOurs(structuredClone(current.value), spec, agent);
  if (spec.shape === 'flat' && value.version === undefined) value.version = 1;
  if (!addOurs(value, spec, agent, command, file)) return { file, changed: false, backup: null, outcome: 'unchanged', note: spec.note };
  const backup = pristine ? backUp(current) : null;
  writeSettings(file, serialize(value, current.raw));
  return { file, changed: true, backup, outcome: 'installed', note: spec.note };
}

/** Removes only Baton's entries; byte-for-byte the original file when nothing else changed since install. */
export function uninstallHooks(agent: HookAgent, baseDir: string): InstallResult {
  const spec = AGENTS[agent];
  const file = settingsPath(agent, baseDir);
  const current = readSettings(file);
  if (current.raw === null) return { file, changed: false, backup: null, outcome: 'absent' };
  if (!removeOurs(structuredClone(current.value), spec, agent)) return { file, changed: false, backup: null, outcome: 'unchanged' };
  const outcome = restoreOrWrite(current, withoutOurs(current.value, spec, agent, readBackup(file)?.value ?? null), leftEmpty);
  return { file, changed: true, backup: null, outcome };
}

/**
 * The folder whose agent settings `baton hooks` edits: the person's home with
 * `user`, else the folder given, else the repository root above `cwd` (where
 * agents look for a project's settings), else `cwd` itself.
 */
export function hooksBase(where: { user?: boolean; dir?: string; cwd: string; env: NodeJS.ProcessEnv }): string {
  if (where.user) return homeOf(where.env);
  return where.dir ? path.resolve(where.cwd, where.dir) : projectRoot(where.cwd);
}
