// Codex CLI: Baton's MCP server in config.toml and its hooks in hooks.json.
//
// Facts, from OpenAI's Codex documentation and source:
// - MCP servers are `[mcp_servers.<name>]` tables in ~/.codex/config.toml, or
//   .codex/config.toml in a trusted project, with `command`, `args`, `env`
//   (developers.openai.com/codex/mcp; openai/codex docs/config.md, "MCP
//   integration"). Startup timeout `startup_timeout_sec`, default 10 s.
// - Hooks: ~/.codex/hooks.json or <repo>/.codex/hooks.json (or inline [hooks] in
//   config.toml), the nested shape {"hooks": {EVENT: [{"matcher"?, "hooks":
//   [{"type": "command", "command", "timeout"}]}]}}; project hooks load only when
//   the project's .codex/ layer is trusted (developers.openai.com/codex/hooks).
//   Unmanaged hooks run only after the person trusts the hook's exact
//   definition (/hooks in the CLI); trust is kept per hash, so a changed command
//   is skipped until trusted again (same page, "Review and trust hooks").
// - `timeout` is seconds (`timeout_sec`, serde rename "timeout", default 600;
//   codex-rs/hooks/src/engine/config.rs as documented in the repo's notes).
// - Events: SessionStart, PreCompact (openai/codex#19905), PostToolUse with
//   apply_patch edits under tool_name "apply_patch", the patch in
//   tool_input.command (openai/codex#18391), Stop, and SessionEnd for the root
//   thread, its timeout default 1 s and capped at 3 s (openai/codex#33895).
// - SessionStart output: {"hookSpecificOutput": {"hookEventName": "SessionStart",
//   "additionalContext"}} (codex-rs/hooks/schema/generated/session-start.command.output.schema.json).
import * as crypto from 'crypto';
import * as path from 'path';
import { readForeignUtf8 } from '../foreignFile';
import type { AgentPlan, ConnectAction, FileFormat, PlanInput } from './agentPlan';
import { planFile, scopeNotHad } from './agentPlan';
import { PROJECT_NOTE, isOurHook, isOurServer, nestedHookSet, serverEntry, type HookEventSpec } from './batonCommand';
import { hooksFormat } from './jsonFormats';
import type { HookSet } from './jsonEdit';
import type { TableEdit } from './tomlEdit';
import { hasTable, readToml, removeTable, upsertTable } from './tomlEdit';
import { isDeepStrictEqual } from 'util';

const EVENTS: HookEventSpec[] = [
  { key: 'SessionStart', event: 'session-start', timeout: 30 },
  { key: 'PreCompact', event: 'pre-compact', timeout: 60 },
  // Shell commands come as tool_name "Bash" (openai/codex#15531): runs, the evidence of Verified claims (issue 26).
  { key: 'PostToolUse', event: 'post-tool-use', matcher: '^(apply_patch|Bash)$', timeout: 10 },
  { key: 'Stop', event: 'stop', timeout: 10 },
  // Codex caps SessionEnd at 3 s.
  { key: 'SessionEnd', event: 'session-end', timeout: 3 },
];

export function codexHookSet(input: PlanInput): HookSet {
  return nestedHookSet(input, 'codex', EVENTS);
}

export function tomlFormat(edit: TableEdit, file: string): FileFormat {
  return {
    hasOurs: (t) => hasTable(t, edit),
    add: (t) => upsertTable(t, edit, file),
    remove: (t) => removeTable(t, edit, file),
    same: (a, b) => isDeepStrictEqual(JSON.parse(JSON.stringify(readToml(a, file))), JSON.parse(JSON.stringify(readToml(b, file)))),
    isEmpty: (t) => t.trim() === '',
  };
}

export function planCodex(action: ConnectAction, input: PlanInput): AgentPlan {
  if (input.scope === 'local') scopeNotHad('codex', input.scope, ['user', 'project']);
  const dir = input.scope === 'user' ? path.join(input.home, '.codex') : path.join(input.projectDir, '.codex');
  const config = path.join(dir, 'config.toml');
  const hooks = path.join(dir, 'hooks.json');
  const edit: TableEdit = { key: ['mcp_servers', 'baton'], value: serverEntry(input, 'codex'), isOurs: isOurServer };
  const files = [planFile(config, input.home, action, tomlFormat(edit, config)), planFile(hooks, input.home, action, hooksFormat(codexHookSet(input), hooks))];
  const notes: string[] = [];
  if (action === 'connect' && files[1].action !== 'unchanged') {
    notes.push('Codex runs a new or changed hook only once you trust it: open /hooks in Codex and trust the Baton hooks.');
  }
  if (action === 'connect' && input.scope === 'project') {
    notes.push(PROJECT_NOTE);
    notes.push("Codex reads a project's .codex/config.toml and .codex/hooks.json only when the project is trusted.");
  }
  return { agent: 'codex', scope: input.scope, action, files, notes, commands: [] };
}

/** Where Codex stands on one of Baton's hooks: runs it, never trusted it, trusted an older definition, or was told not to run it. */
export type CodexHookTrust = 'trusted' | 'untrusted' | 'modified' | 'disabled';

export interface CodexHookVerdict {
  event: string;
  /** Codex's key for the handler: `<hooks.json path>:<event_label>:<group>:<handler>`. */
  key: string;
  trust: CodexHookTrust;
}

// Events whose matcher Codex ignores (codex-rs/hooks/src/events/common.rs
// matcher_pattern_for_event): their hash is taken without it.
const NO_MATCHER = new Set(['UserPromptSubmit', 'Stop']);

const label = (event: string): string => event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();

const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : v;

/**
 * The hash Codex keeps a hook's trust under (codex-rs/hooks/src/engine/discovery.rs
 * command_hook_hash; codex-rs/config/src/fingerprint.rs version_for_toml):
 * sha256 of the compact, key-sorted JSON of {event_name, matcher?, hooks:
 * [the one handler, timeout defaulted to 600]}, fields TOML cannot hold
 * (None) left out. Checked against the `currentHash` of the real Codex's
 * `hooks/list` in test/agents/codex.test.ts, so a Codex that changes it
 * fails that test, not a person's doctor.
 */
export function codexHookHash(event: string, matcher: string | undefined, handler: { command: string; timeout?: number; async?: boolean; statusMessage?: string }): string {
  const hook: Record<string, unknown> = { type: 'command', command: handler.command, timeout: Math.max(1, handler.timeout ?? 600), async: handler.async === true };
  if (handler.statusMessage !== undefined) hook.statusMessage = handler.statusMessage;
  const identity: Record<string, unknown> = { event_name: label(event), hooks: [hook] };
  if (matcher !== undefined && !NO_MATCHER.has(event)) identity.matcher = matcher;
  return `sha256:${crypto
    .createHash('sha256')
    .update(JSON.stringify(canonical(identity)))
    .digest('hex')}`;
}

/** Null for a file that is missing or one Baton will not read (foreignFile.ts): agentStatus reports the second. */
const readText = (file: string): string | null => {
  try {
    return readForeignUtf8(file);
  } catch {
    return null;
  }
};

/**
 * Codex's verdict on each of Baton's hooks in one scope's hooks.json, read
 * the way Codex reads it: the key is the file's absolute path, the event's
 * label and the group's and handler's positions; the trust is the
 * `[hooks.state."<key>"]` table of ~/.codex/config.toml (where /hooks writes
 * it; a project's .codex/config.toml is read too), `trusted_hash` against the
 * definition's hash now, `enabled = false` a hook switched off there.
 * Empty when the file is missing or not JSON (agentStatus reports those).
 */
export function codexHookTrust(input: Pick<PlanInput, 'scope' | 'home' | 'projectDir'>): CodexHookVerdict[] {
  const dir = input.scope === 'user' ? path.join(input.home, '.codex') : path.join(input.projectDir, '.codex');
  const hooksFile = path.join(dir, 'hooks.json');
  let hooks: unknown;
  try {
    hooks = (JSON.parse(readText(hooksFile) ?? 'null') as { hooks?: unknown } | null)?.hooks;
  } catch {
    return [];
  }
  if (!hooks || typeof hooks !== 'object') return [];
  const states: Record<string, { trusted_hash?: unknown; enabled?: unknown }> = {};
  for (const file of [path.join(input.projectDir, '.codex', 'config.toml'), path.join(input.home, '.codex', 'config.toml')]) {
    const text = readText(file);
    if (text === null) continue;
    try {
      const state = (readToml(text, file).hooks as { state?: unknown } | undefined)?.state;
      if (state && typeof state === 'object') Object.assign(states, state);
    } catch {
      // A config.toml Codex cannot read either: agentStatus says so.
    }
  }
  const out: CodexHookVerdict[] = [];
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((g: { matcher?: unknown; hooks?: unknown }, gi) => {
      if (!g || !Array.isArray(g.hooks)) return;
      g.hooks.forEach((h: { type?: unknown; command?: unknown; timeout?: unknown; async?: unknown; statusMessage?: unknown }, hi) => {
        if (!h || h.type !== 'command' || !isOurHook(h.command)) return;
        const key = `${hooksFile}:${label(event)}:${gi}:${hi}`;
        const hash = codexHookHash(event, typeof g.matcher === 'string' ? g.matcher : undefined, {
          command: h.command as string,
          timeout: typeof h.timeout === 'number' ? h.timeout : undefined,
          async: h.async === true,
          statusMessage: typeof h.statusMessage === 'string' ? h.statusMessage : undefined,
        });
        const state = states[key];
        const trust: CodexHookTrust =
          state?.enabled === false ? 'disabled' : state?.trusted_hash === undefined ? 'untrusted' : state.trusted_hash === hash ? 'trusted' : 'modified';
        out.push({ event, key, trust });
      });
    });
  }
  return out;
}
