// The MCP tools that write to the vault: note_progress, checkpoint, handoff,
// save_plan, close_abandoned. None destroys anything: a checkpoint folds notes
// into a new file before removing them, and closing an abandoned session keeps
// its notes in the auto-closed checkpoint.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { checkpointJson } from '../core/publicJson';
import { checkpointFields } from '../app/checkpointFields';
import { commitAsAgent, commitCoverage, gitStateOf } from '../app/commit';
import { agentArg, checkpointFields as fieldArgs, commitOutput, checkpointJsonSchema, noteOutput, projectArg, savePlanOutput } from './schemas';
import { guarded, reply, type ToolContext } from './toolContext';

type FieldArgs = { [K in keyof typeof fieldArgs]?: K extends 'task' | 'intent' | 'state' | 'next' ? string : string[] };

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

async function commitFrom(ctx: ToolContext, a: FieldArgs & { project?: string; agent?: string }, to?: string) {
  const { scope, folder } = await ctx.project(a.project);
  const agent = ctx.agent(a.agent);
  const git = await gitStateOf(folder);
  const r = await commitAsAgent(ctx.deps.baton, { scope, agent, fields: checkpointFields(a), handoffTo: to, git, at: ctx.deps.now(), coveredCommits: commitCoverage(folder) });
  const lines = [
    `${to ? `Handoff to ${r.checkpoint.handoffTo}` : 'Checkpoint'} ${r.checkpoint.session} written in ${scope}: ${r.path}`,
  ];
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
      description:
        'Record a working note in your Baton session as you work: what you tried, what you found, a decision and why. ' +
        'One cheap append; call it after each meaningful step so nothing is lost if the session crashes or the context is compacted. ' +
        'Your notes are folded into your next checkpoint.',
      inputSchema: { project: projectArg, text: z.string().describe('The note, one or two sentences ("tried X: fails because Y").'), agent: agentArg },
      outputSchema: noteOutput,
      annotations: WRITE,
    },
    guarded(async (a) => {
      const { scope } = await ctx.project(a.project);
      const r = await ctx.deps.baton.note(scope, ctx.agent(a.agent), a.text, ctx.deps.now());
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
        'Commit a checkpoint: the durable record the next agent or person reads first. Call it before you stop, before a risky change, ' +
        'or at a milestone. Put every approach you tried and ruled out in "failed", with why: that is what saves the next session hours. ' +
        'Give at least a task, state or next step. Folds your working notes.',
      inputSchema: { project: projectArg, ...fieldArgs, agent: agentArg },
      outputSchema: commitOutput,
      annotations: WRITE,
    },
    guarded((a) => commitFrom(ctx, a)),
  );

  server.registerTool(
    'handoff',
    {
      title: 'Hand off',
      description:
        'Commit a checkpoint left for another agent or person ("to") who will continue the work: like checkpoint, addressed. ' +
        'Say where it stands, what was ruled out ("failed") and the one next step.',
      inputSchema: {
        project: projectArg,
        to: z.string().describe('Who takes over: an agent ("cursor", "codex") or a person.'),
        ...fieldArgs,
        agent: agentArg,
      },
      outputSchema: commitOutput,
      annotations: WRITE,
    },
    guarded((a) => commitFrom(ctx, a, a.to)),
  );

  server.registerTool(
    'save_plan',
    {
      title: 'Save plan',
      description: 'Save a plan the user approved (markdown), so later sessions see what was agreed before the work began.',
      inputSchema: { project: projectArg, plan: z.string().describe('The plan text, markdown.'), agent: agentArg },
      outputSchema: savePlanOutput,
      annotations: WRITE,
    },
    guarded(async (a) => {
      const { scope } = await ctx.project(a.project);
      const r = await ctx.deps.baton.savePlan(scope, ctx.agent(a.agent), a.plan, ctx.deps.now());
      return reply(`Plan saved: ${r.plan.slug}.md${r.redactions ? ` (masked ${r.redactions} secret(s))` : ''}`, {
        slug: r.plan.slug,
        project: scope,
        agent: r.plan.agent,
        ts: r.plan.ts,
        redactions: r.redactions,
      });
    }),
  );

  server.registerTool(
    'close_abandoned',
    {
      title: 'Close abandoned session',
      description:
        "Close a session that has been silent for more than 6 hours on its owner's behalf: writes an auto-closed checkpoint holding " +
        'its notes (marked as nobody\'s hand-over). Refused for a session active within 6h. Get session ids from the sessions tool.',
      inputSchema: { project: projectArg, session: z.string().describe('The abandoned session id, e.g. 20260814-143207-claude.') },
      outputSchema: { checkpoint: checkpointJsonSchema },
      // A second call with the same id is refused and changes nothing.
      annotations: { ...WRITE, idempotentHint: true },
    },
    guarded(async (a) => {
      const { scope } = await ctx.project(a.project);
      const cp = await ctx.deps.baton.closeAbandoned(scope, a.session.trim());
      return reply(`Closed ${a.session.trim()}: wrote auto-closed checkpoint ${cp.slug}.md`, { checkpoint: checkpointJson(cp) });
    }),
  );
}
