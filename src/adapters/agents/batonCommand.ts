// The commands Baton writes into agents' files, and how Baton knows its own
// entries again: by command, never by position or name alone, so a person's
// hook on the same event, or their own server that happens to share a name,
// is left alone.
import * as path from 'path';
import type { AgentId, BatonEvent, PlanInput } from './agentPlan';
import type { HookSet } from './jsonEdit';

/**
 * The program configs call. User and local scope: the launcher by absolute
 * path (no PATH needed, survives extension updates). Project scope: `baton`
 * on PATH, because a committed file is read on teammates' machines.
 */
export function launcherFor(input: PlanInput): string {
  return input.scope === 'project' ? 'baton' : input.launcherPath;
}

/**
 * Quotes a path for the shell a hook runs in (sh, or Git Bash on Windows), only
 * when it needs it: a space in a home folder, a backslash of a Windows path
 * (which the shell would otherwise eat).
 */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `"${word.replace(/(["\\$`])/g, '\\$1')}"`;
}

/**
 * `<launcher> --vault <vault> hook AGENT EVENT`. Hooks run in the agent's
 * environment, which need not have BATON_VAULT: the vault connect was told
 * about is named on the command line (the CLI takes `--vault` before the
 * command). A project file names none: each teammate's own vault applies.
 */
export function hookCommand(input: PlanInput, agent: AgentId, event: BatonEvent, quote: (w: string) => string = shellWord): string {
  const vault = input.scope === 'project' ? '' : ` --vault ${quote(input.vault)}`;
  return `${quote(launcherFor(input))}${vault} hook ${agent} ${event}`;
}

/**
 * `… baton [--vault V] hook AGENT EVENT` or `… cli.js … hook AGENT EVENT`, quoted or not:
 * also what `baton hooks install` wrote before connect existed, so connecting
 * replaces those instead of adding a second set.
 */
const OUR_HOOK = /(?:^|[\s/\\"'])(?:baton(?:\.cmd)?|cli\.js)["']?\s+(?:.*\s)?hook\s+(claude-code|codex|cursor|gemini|copilot)\s+([a-z-]+)\s*$/;

export function isOurHook(command: unknown): boolean {
  return typeof command === 'string' && OUR_HOOK.test(command);
}

/** A server entry is Baton's when its program is a baton launcher or the CLI script and its first argument is `mcp`. */
export function isOurServer(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (typeof command !== 'string' || !Array.isArray(args)) return false;
  const base = path.basename(command.replace(/\\/g, '/')).toLowerCase();
  const program = base === 'baton' || base === 'baton.cmd' || base === 'baton.exe';
  const script = (base === 'node' || base === 'node.exe' || base.startsWith('electron') || program) && args.some((a) => typeof a === 'string' && /cli\.js$/.test(a));
  return (program || script) && args.includes('mcp');
}

/**
 * Baton's stdio server: the launcher with `mcp`, and in its environment the
 * vault (absent from a project file) and BATON_AGENT, the name the agent's
 * hooks write as (hooks/hosts.ts AGENT_OF), so its MCP notes and its hooks'
 * notes are one session whatever its MCP client calls itself (mcp/clientAgents.ts).
 */
export function serverEntry(input: PlanInput, agent?: AgentId): { command: string; args: string[]; env?: Record<string, string> } {
  const entry: { command: string; args: string[]; env?: Record<string, string> } = { command: launcherFor(input), args: ['mcp'] };
  const env: Record<string, string> = {};
  if (input.scope !== 'project') env.BATON_VAULT = input.vault;
  if (agent) env.BATON_AGENT = agent;
  if (Object.keys(env).length) entry.env = env;
  return entry;
}

export const PROJECT_NOTE =
  'This file is meant to be committed: it calls `baton` on PATH and names no vault. Each teammate needs the `baton` command on PATH ' +
  "(Baton: Install 'baton' Command in PATH, or npm install -g of the CLI) and, to choose a vault, BATON_VAULT in their environment (default ~/baton).";

/** One event Baton hooks in a host: the host's name for it, Baton's event, a tool matcher, the timeout in the host's unit. */
export interface HookEventSpec {
  key: string;
  event: BatonEvent;
  matcher?: string;
  timeout: number;
}

/**
 * The nested shape Claude Code, Codex and Gemini CLI share (event → matcher
 * group → command handlers), Baton's handlers recognised by their command.
 * `handler` adds what one host's handlers carry beside the command (Gemini's
 * `name`).
 */
export function nestedHookSet(input: PlanInput, agent: AgentId, events: readonly HookEventSpec[], handler: (e: HookEventSpec) => Record<string, unknown> = () => ({})): HookSet {
  return {
    shape: 'nested',
    commandKey: 'command',
    isOurs: isOurHook,
    entries: events.map((e) => ({
      event: e.key,
      entry: { ...(e.matcher ? { matcher: e.matcher } : {}), hooks: [{ ...handler(e), type: 'command', command: hookCommand(input, agent, e.event), timeout: e.timeout }] },
    })),
  };
}

/** The flat shape Cursor and Copilot CLI share (event → handlers); `entry` is one handler in the host's own keys. */
export function flatHookSet(commandKey: string, events: readonly HookEventSpec[], entry: (e: HookEventSpec) => Record<string, unknown>): HookSet {
  return { shape: 'flat', commandKey, isOurs: isOurHook, entries: events.map((e) => ({ event: e.key, entry: entry(e) })) };
}
