// `baton hook AGENT EVENT`: what an agent's hook runs, with the payload on
// stdin. Two promises to the agent: it never fails (always exit 0, nothing on
// stdout but what the agent should read, errors to `<vault>/.baton/hooks.log`),
// and it is fast. Post-tool-use fires after every tool call, so this file
// imports nothing heavy: the core, sql.js, the YAML parser and git are loaded
// (app/agentHooks.ts) only once the payload is known to matter.
import type { Io } from '../app/io';
import { logHookError, logHookLine } from './hookLog';
import type { Host } from './hosts';
import { AGENT_OF, OWN_HOOK_OF, sessionStartAnswer } from './hosts';
import { MalformedPayload, parsePayload } from './payload';
import { SHELL_TOOL_NAMES } from './shellRun';

/** The agents whose hooks Baton installs (src/adapters/agents/*Config.ts); each is also the host it was installed for. */
export const HOOK_AGENTS = ['claude-code', 'codex', 'cursor', 'gemini', 'copilot'] as const;
/** Every event those config modules register (`file-edit` is Cursor's afterFileEdit). */
export const HOOK_EVENTS = ['session-start', 'pre-compact', 'post-tool-use', 'file-edit', 'stop', 'session-end'] as const;

/** The only tool whose use Baton records besides edits: leaving plan mode means the user approved a plan. */
const PLAN_TOOL = 'ExitPlanMode';
/**
 * A payload naming none of these cannot be an edit or a plan approval, and is
 * answered before it is parsed (it may carry a whole file's contents): the
 * edit tools of every host (hooks/hosts.ts), Cursor's and VS Code's file path keys.
 */
const WORTH_PARSING =
  /ExitPlanMode|"(?:Edit|Write|NotebookEdit|MultiEdit|apply_patch|write_file|replace|edit|create|str_replace)"|file_path|filePath|editFiles|createFile|replaceString|insertEdit|applyPatch|Notebook/;

const now = (): number => Math.floor(Date.now() / 1000);

/** All a hook needs: the vault and the terminal. The CLI hands one in, and hookMain.ts builds one without loading the CLI. */
export interface HookContext {
  readonly vault: string;
  readonly io: Io;
}

export async function hook(ctx: HookContext, args: string[]): Promise<number> {
  const [agentName = '', event = ''] = args;
  const label = `${agentName} ${event}`.trim();
  try {
    if (!(HOOK_AGENTS as readonly string[]).includes(agentName) || !(HOOK_EVENTS as readonly string[]).includes(event)) {
      ctx.io.err(`baton hook: unknown agent or event "${label}" (agents: ${HOOK_AGENTS.join(', ')}; events: ${HOOK_EVENTS.join(', ')})\n`);
      return 0;
    }
    const installedFor = agentName as Host;
    const raw = await ctx.io.stdin();
    const editEvent = event === 'post-tool-use' || event === 'file-edit';
    // The fast path: a tool call that is neither an edit nor a plan approval is
    // answered without parsing its payload.
    if (editEvent && !WORTH_PARSING.test(raw) && !SHELL_TOOL_NAMES.test(raw)) return 0;
    const payload = parsePayload(raw, installedFor);
    const isPlan = event === 'post-tool-use' && payload.toolName === PLAN_TOOL;
    // A shell call is a run of the session (app/runHooks.ts): one git read, one appended line, no note.
    if (event === 'post-tool-use' && payload.shell) {
      await (await import('../app/runHooks')).shellRan({ vaultRoot: ctx.vault, env: ctx.io.env, agent: AGENT_OF[payload.host], now }, payload);
      return 0;
    }
    if (editEvent && !isPlan && payload.edited.length === 0) return 0;

    // Edits, turn ends and session ends load only the light use cases (no git,
    // no transcript reader): they run often, or within a second's budget.
    const light = await import('../app/editHooks');
    const h = { vaultRoot: ctx.vault, env: ctx.io.env, agent: AGENT_OF[payload.host], now };
    if (editEvent && !isPlan) await light.filesEdited(h, payload);
    else if (event === 'stop') await light.turnEnded(h, payload);
    else if (event === 'session-end') {
      const end = await light.sessionEnd(h, payload);
      if ('skipped' in end) logHookLine(ctx.vault, label, end.skipped);
    } else if (event === 'session-start') {
      // A host that runs another host's hooks (Cursor and VS Code run
      // `.claude/settings*.json`) while Baton's own hook for it is installed
      // too would print the hand-over twice: the borrowed hook stays silent.
      const own = OWN_HOOK_OF[payload.host];
      if (own !== installedFor && (await light.ownHookInstalled(h, payload, own))) return 0;
      const text = await (await import('../app/agentHooks')).sessionStart(h, payload);
      ctx.io.out(sessionStartAnswer(payload.host, text));
    } else if (event === 'pre-compact') {
      const capture = await (await import('../app/agentHooks')).preCompact(h, payload);
      // Nothing written is no failure, but a person wondering why there is no capture finds the reason here.
      if ('skipped' in capture) logHookLine(ctx.vault, label, capture.skipped);
    } else if (isPlan) await (await import('../app/agentHooks')).planApproved(h, payload);
  } catch (err) {
    // A payload that is not a JSON object writes nothing at all, not even a
    // log line: it was not sent by an agent that speaks this contract.
    if (err instanceof MalformedPayload) ctx.io.err(`baton hook ${label}: ${err.message}; nothing recorded\n`);
    else logHookError(ctx.vault, label, err);
  }
  return 0;
}
