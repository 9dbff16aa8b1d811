// The MCP tools that write to the vault: note_progress and checkpoint (a
// hand-off is a checkpoint with `to`). Neither destroys anything: a checkpoint
// folds notes into a new file before removing them. Plans, closing abandoned
// sessions and the other lists are the CLI's and the editor's (and the MCP
// resources'): every tool here costs its schema in every request an agent
// sends, so only the ones agents call in a session are tools (bench/tokens.ts).
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { checkpointFields } from '../app/checkpointFields';
import { commitCheckpoint } from '../app/commit';
import { checkpointFields as fieldArgs, commitOutput, noteOutput, projectArg } from './schemas';
import { guarded, reply, type CallExtra, type ToolContext } from './toolContext';

type FieldArgs = { [K in keyof typeof fieldArgs]?: K extends 'task' | 'intent' | 'state' | 'next' ? string : string[] };

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

async function commitFrom(ctx: ToolContext, a: FieldArgs & { project?: string }, to: string | undefined, extra?: CallExtra) {
  const { scope, folder } = await ctx.project(a.project);
  const agent = ctx.agent();
  const session = ctx.agentSession(extra?._meta);
  const r = await commitCheckpoint(ctx.deps.baton, {
    scope,
    agent,
    fields: checkpointFields(a),
    handoffTo: to,
    at: ctx.deps.now(),
    folder,
    byAgent: true,
    // The key a hook's checkpoint carries (app/agentHooks.ts preCompact), so either names its session alike.
    ...(session ? { extra: { agent_session: session } } : {}),
  });
  const lines = [`${to ? `Handoff to ${r.checkpoint.handoffTo}` : 'Checkpoint'} ${r.checkpoint.session} written in ${scope}: ${r.path}`];
  if (r.folded) lines.push(`Folded ${r.folded} working note(s) into its State.`);
  if (r.redactions) lines.push(`Masked ${r.redactions} secret(s) before writing.`);
  if (r.placeholderNotice) lines.push(r.placeholderNotice);
  return reply(lines.join('\n'), {
    session: r.checkpoint.session,
    slug: r.checkpoint.slug,
    path: r.path,
    project: scope,
    agent: r.checkpoint.agent,
    handoffTo: r.checkpoint.handoffTo,
    folded: r.folded,
    redactions: r.redactions,
    placeholdersDropped: r.placeholdersDropped,
  });
}

export function registerWriteTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'note_progress',
    {
      title: 'Note progress',
      description: 'Record a working note after each meaningful step: what you tried, found or decided, and why. Folded into your next checkpoint.',
      inputSchema: { project: projectArg, text: z.string().describe('One or two sentences ("tried X: fails because Y").') },
      outputSchema: noteOutput,
      annotations: WRITE,
    },
    guarded(async (a, call) => {
      const { scope } = await ctx.project(a.project);
      const r = await ctx.deps.baton.note(scope, ctx.agent(), a.text, ctx.deps.now(), { agentSession: ctx.agentSession(call?._meta) });
      const extra = [r.redactions ? ` Masked ${r.redactions} secret(s).` : '', r.durable ? '' : ` Not yet durable: ${r.reason}`].join('');
      return reply(`Noted in ${scope} as ${r.note.agent}.${extra}`, {
        project: scope,
        agent: r.note.agent,
        ts: r.note.ts,
        durable: r.durable,
        redactions: r.redactions,
      });
    }),
  );

  server.registerTool(
    'checkpoint',
    {
      title: 'Checkpoint',
      description:
        'Commit the record the next session reads first, before you stop or at a milestone; with "to", a hand-off. ' +
        'Put each ruled-out approach in "failed". Give at least a task, state or next step; your notes are folded in.',
      inputSchema: {
        project: projectArg,
        to: z.string().optional().describe('Hand off to this agent or person (e.g. "codex").'),
        ...fieldArgs,
      },
      outputSchema: commitOutput,
      annotations: WRITE,
    },
    guarded((a, extra) => commitFrom(ctx, a, a.to?.trim() || undefined, extra)),
  );
}
