// `baton hook AGENT EVENT`: what an agent's hook runs, with the payload on
// stdin. Two promises to the agent: it never fails (always exit 0, nothing on
// stdout but what the agent should read, errors to `<vault>/.baton/hooks.log`),
// and it is fast. Post-tool-use fires after every tool call, so this file
// imports nothing heavy: the core, sql.js, the YAML parser and git are loaded
// (app/agentHooks.ts) only once the payload is known to matter.
import type { Io } from '../app/io';
import { logHookError } from './hookLog';
import { MalformedPayload, parsePayload } from './payload';

/** The agents whose hooks Baton answers, and the agent name each writes as (the name its MCP client reports). */
export const HOOK_AGENTS: Record<string, string> = { 'claude-code': 'claude-code', codex: 'codex', cursor: 'cursor' };
export const HOOK_EVENTS = ['session-start', 'pre-compact', 'post-tool-use', 'session-end'] as const;

/** The only tool whose use Baton records: leaving plan mode means the user approved a plan. */
const PLAN_TOOL = 'ExitPlanMode';

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
    const agent = HOOK_AGENTS[agentName];
    if (!agent || !(HOOK_EVENTS as readonly string[]).includes(event)) {
      ctx.io.err(`baton hook: unknown agent or event "${label}" (agents: ${Object.keys(HOOK_AGENTS).join(', ')}; events: ${HOOK_EVENTS.join(', ')})\n`);
      return 0;
    }
    const raw = await ctx.io.stdin();
    // The fast path: a tool call that is not a plan approval is answered
    // without parsing a payload that may carry a whole file's contents.
    if (event === 'post-tool-use' && !raw.includes(PLAN_TOOL)) return 0;
    const payload = parsePayload(raw);
    if (event === 'post-tool-use' && payload.toolName !== PLAN_TOOL) return 0;

    const events = await import('../app/agentHooks');
    const h = { vaultRoot: ctx.vault, env: ctx.io.env, agent, now };
    if (event === 'session-start') {
      const text = await events.sessionStart(h, payload);
      if (text) ctx.io.out(agentName === 'cursor' ? JSON.stringify({ additional_context: text }) + '\n' : text);
    } else if (event === 'pre-compact') await events.preCompact(h, payload);
    else if (event === 'post-tool-use') await events.planApproved(h, payload);
    else await events.sessionEnd(h, payload);
  } catch (err) {
    // A payload that is not a JSON object writes nothing at all, not even a
    // log line: it was not sent by an agent that speaks this contract.
    if (err instanceof MalformedPayload) ctx.io.err(`baton hook ${label}: ${err.message}; nothing recorded\n`);
    else logHookError(ctx.vault, label, err);
  }
  return 0;
}
