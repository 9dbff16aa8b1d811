// The MCP prompts: resume, checkpoint, handoff. A client offers them to its
// user as commands (Claude Code: `/mcp__baton__resume`, `/mcp__baton__handoff`),
// and each becomes one user message. `resume` carries the hand-over itself,
// framed as facts (checkpoint text quoted, core/handover.ts); `checkpoint` and
// `handoff` ask the model to call the checkpoint tool (with `to` for a
// hand-off) and say which fields it takes.
//
// API: `McpServer.registerPrompt(name, { title, description, argsSchema }, cb)`
// of @modelcontextprotocol/sdk 1.32 (dist/esm/server/mcp.d.ts; README "Tools,
// resources, prompts" -> docs/server.md). Prompt arguments are strings; the
// callback returns `{ messages: [{ role: 'user', content: { type: 'text', text } }] }`.
// A thrown error becomes the prompts/get JSON-RPC error (toolContext.ts).
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { ident } from '../core/quoted';
import { handoverOf } from './handoverText';
import { knownScope } from './projects';
import type { checkpointFields } from './schemas';
import { rethrown, type ToolContext } from './toolContext';

const projectPromptArg = z.string().optional().describe("Project name. Leave it out for BATON_PROJECT, else the workspace root's project, else the server's folder.");

/** What to put in each field of the checkpoint and handoff tools, in a few words (typed: a new field must be named here). */
const FIELD_HINTS: Record<keyof typeof checkpointFields, string> = {
  task: 'what was being done',
  intent: 'why it matters',
  state: 'where it stands now',
  decisions: 'choices made, each with its reason',
  failed: 'every approach tried and ruled out, each with why it failed (leave it out when nothing was ruled out)',
  verified: 'what was checked, each with its evidence',
  blockers: 'what is known broken and what it stops',
  commands: 'commands that produced the evidence',
  questions: 'open questions',
  files: 'files changed or that matter, relative to the project root',
  next: 'the one next step',
};

const fieldList = (): string => (Object.keys(FIELD_HINTS) as (keyof typeof FIELD_HINTS)[]).map((k) => `- ${k}: ${FIELD_HINTS[k]}`).join('\n');

const userText = (text: string): GetPromptResult => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });

const inProject = (project: string | undefined): string => (project?.trim() ? ` with project ${ident(project.trim())}` : '');

export function registerPrompts(server: McpServer, ctx: ToolContext): void {
  server.registerPrompt(
    'resume',
    {
      title: 'Resume from Baton',
      description: "The project's hand-over from Baton: the latest checkpoint, what didn't work, working notes not yet checkpointed.",
      argsSchema: { project: projectPromptArg },
    },
    rethrown(async ({ project }) => {
      // A project named here must be one the vault knows: a typo would otherwise read as "no checkpoint yet".
      if (project?.trim()) await knownScope(ctx.deps.baton, project);
      const { scope } = await ctx.project(project);
      const { text } = await handoverOf(ctx.deps, scope, ctx.agent());
      const framing = `Baton's hand-over for project ${ident(scope)} follows: the record earlier sessions left in the Baton vault, as of now.`;
      return userText(`${framing}\n\n${text}`);
    }),
  );

  server.registerPrompt(
    'checkpoint',
    {
      title: 'Checkpoint to Baton',
      description: "Ask for a Baton checkpoint of this session through Baton's checkpoint tool.",
      argsSchema: { project: projectPromptArg },
    },
    rethrown(async ({ project }) =>
      userText(
        `Record a checkpoint of this session: call Baton's \`checkpoint\` tool${inProject(project)}. Its fields:\n${fieldList()}\n` +
          'Give at least a task, state or next step; your working notes are folded in.',
      ),
    ),
  );

  server.registerPrompt(
    'handoff',
    {
      title: 'Hand off through Baton',
      description: "Ask for a Baton hand-over to another agent or person through Baton's checkpoint tool.",
      argsSchema: { to: z.string().trim().min(1, 'Say who takes over.').describe('Who takes over: an agent ("cursor", "codex") or a person.'), project: projectPromptArg },
    },
    rethrown(async ({ to, project }) =>
      userText(
        `Hand this work over to ${ident(to.trim())}: call Baton's \`checkpoint\` tool with \`to\` = ${ident(to.trim())}${inProject(project)}. ` +
          `Its other fields:\n${fieldList()}\n` +
          'Say where it stands, what was ruled out, and the one next step.',
      ),
    ),
  );
}
