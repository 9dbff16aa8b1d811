// The MCP tools that only read: resume, why, sessions, plans, list_projects,
// before_you_try, search. Marked read-only and idempotent so clients may call them
// without asking. (resume also appends to `.baton/resumes.log`, derived data
// for `baton stats`; the record itself is untouched.)
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { renderDeadEnds, renderPlans, renderSessions, renderTouches } from '../core/handover';
import { ident } from '../core/quoted';
import { checkpointJson } from '../core/publicJson';
import { renderSearchHits, searchHitJson } from '../core/searchHits';
import { MAX_SEARCH_LIMIT } from '../core/search';
import { age } from '../core/time';
import { why } from '../app/why';
import { whyOfLines } from './whyLines';
import { handoverOf } from './handoverText';
import { agentArg, deadEndsOutput, plansOutput, projectArg, projectsOutput, resumeOutput, searchOutput, sessionsOutput, whyOutput } from './schemas';
import { guarded, reply, type ToolContext } from './toolContext';

const READ = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const;

export function registerReadTools(server: McpServer, ctx: ToolContext): void {
  const { deps } = ctx;

  server.registerTool(
    'resume',
    {
      title: 'Resume',
      description:
        "Read the project's hand-over before you plan anything: the latest checkpoint (task, what didn't work, what was verified, " +
        'the next step), working notes not yet checkpointed, and abandoned sessions. Call it first in every session.',
      inputSchema: { project: projectArg, agent: agentArg },
      outputSchema: resumeOutput,
      annotations: READ,
    },
    guarded(async (a) => {
      const { scope } = await ctx.project(a.project);
      const { view, theirs, text } = await handoverOf(deps, scope, ctx.agent(a.agent));
      return reply(text, { ...view, latest: view.latest ? checkpointJson(view.latest) : null, basicMemory: theirs.map(checkpointJson) });
    }),
  );

  server.registerTool(
    'why',
    {
      title: 'Why is this file so',
      description:
        'Which checkpoints touched a file, across every project, newest first, with their task: read why a file is the way it is ' +
        'before you change it. Accepts any form of the path (relative, absolute, bare file name). With line (and end_line): the ' +
        'session that wrote those lines, its task, what it ruled out and decided, and its next step.',
      inputSchema: {
        file: z.string().describe('The file, e.g. src/auth/session.ts.'),
        limit: z.number().int().min(1).max(200).optional().describe('At most this many (default 20).'),
        line: z.number().int().min(1).optional().describe('A line (1-based): answer which session wrote it, from git blame, with what it ruled out.'),
        end_line: z.number().int().min(1).optional().describe('With line: the last line of the range (inclusive).'),
      },
      outputSchema: whyOutput,
      annotations: READ,
    },
    guarded(async (a) => {
      if (a.line !== undefined || a.end_line !== undefined) return whyOfLines(ctx, a.file, a.line ?? a.end_line ?? 1, a.end_line);
      const limit = a.limit ?? 20;
      const merged = await why(deps.baton, a.file, limit, deps.basicMemoryDir);
      return reply(renderTouches(a.file, merged, deps.now()), { file: a.file, touches: merged });
    }),
  );

  server.registerTool(
    'sessions',
    {
      title: 'Sessions',
      description:
        "The project's checkpoints (newest first), its working notes not yet checkpointed, and its abandoned sessions " +
        '(silent over 6h; their ids go to close_abandoned).',
      inputSchema: { project: projectArg },
      outputSchema: sessionsOutput,
      annotations: READ,
    },
    guarded(async (a) => {
      const { scope } = await ctx.project(a.project);
      const view = await deps.baton.sessions(scope);
      const text = renderSessions(view, deps.now(), { listNotes: false, closeCommand: false });
      return reply(text, { ...view, checkpoints: view.checkpoints.map(checkpointJson) });
    }),
  );

  server.registerTool(
    'plans',
    {
      title: 'Plans',
      description: 'The plans saved for the project, newest first, with their full text.',
      inputSchema: { project: projectArg },
      outputSchema: plansOutput,
      annotations: READ,
    },
    guarded(async (a) => {
      const { scope } = await ctx.project(a.project);
      const plans = await deps.baton.plans(scope);
      return reply(renderPlans(scope, plans), { project: scope, plans });
    }),
  );

  server.registerTool(
    'list_projects',
    {
      title: 'List projects',
      description:
        'Every project in the vault: checkpoint count, last checkpoint and by whom, working notes not yet checkpointed, ' +
        'abandoned sessions, and whether it has gone quiet (no checkpoint in 14 days).',
      inputSchema: {},
      outputSchema: projectsOutput,
      annotations: READ,
    },
    guarded(async () => {
      const projects = await deps.baton.continuity();
      const now = deps.now();
      const text = projects.length
        ? projects
            .map((p) => {
              const last = p.lastCheckpoint ? `last ${age(now - p.lastCheckpoint)} ago by ${ident(p.lastAgent)}` : 'never checkpointed';
              const flags = [p.quiet ? 'quiet' : '', p.uncommitted ? `${p.uncommitted} uncommitted` : '', p.abandoned ? `${p.abandoned} abandoned` : ''];
              return `${ident(p.project)}: ${p.checkpoints} checkpoint(s), ${last}${flags.some(Boolean) ? ` [${flags.filter(Boolean).join(', ')}]` : ''}`;
            })
            .join('\n')
        : 'The vault has no projects yet.';
      return reply(text, { projects });
    }),
  );

  server.registerTool(
    'before_you_try',
    {
      title: 'Before you try',
      description:
        'Before trying an approach, ask whether someone already tried it and ruled it out: returns the recorded dead ends whose words ' +
        'match it, across the vault (or one project), with who ruled each out, when, and in which checkpoint.',
      inputSchema: {
        approach: z.string().describe('The approach in a few words, e.g. "mock the payment gateway in unit tests".'),
        project: z.string().optional().describe('Only this project (with its worktrees). Leave it out to search every project.'),
      },
      outputSchema: deadEndsOutput,
      annotations: READ,
    },
    guarded(async (a) => {
      const deadEnds = await deps.baton.beforeYouTry(a.approach, a.project?.trim() || undefined);
      return reply(renderDeadEnds(a.approach, deadEnds), { approach: a.approach, deadEnds });
    }),
  );

  server.registerTool(
    'search',
    {
      title: 'Search the vault',
      description:
        'Full-text search of every checkpoint (each field), working note and plan, across the vault or one project with its worktrees: ' +
        '"where did we decide the retry policy", "did anyone try a read replica". Words are matched stemmed (mock finds mocking), ' +
        'best first: hits holding every word, then relevance, then the newest. Each hit names its kind, project, agent, time, ' +
        'the section that matched and a snippet with the matched words in **bold**.',
      inputSchema: {
        query: z.string().describe('A few words, e.g. "retry policy". Operators and quotes are taken as plain text.'),
        project: z.string().optional().describe('Only this project (with its worktrees). Leave it out to search every project.'),
        kind: z.enum(['checkpoint', 'note', 'plan']).optional().describe('Only checkpoints, working notes or plans.'),
        limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe('At most this many (default 20).'),
      },
      outputSchema: searchOutput,
      annotations: READ,
    },
    guarded(async (a) => {
      const hits = await deps.baton.search({ query: a.query, project: a.project?.trim() || undefined, kind: a.kind, limit: a.limit });
      return reply(renderSearchHits(a.query, hits, deps.now()), { query: a.query, hits: hits.map(searchHitJson) });
    }),
  );
}
