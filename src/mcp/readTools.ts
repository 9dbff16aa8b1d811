// The MCP tools that only read: resume, why, before_you_try, search. The
// project lists, a project's checkpoints and its plans are resources
// (resources.ts), read when asked, not schemas sent with every request. Marked read-only and idempotent so clients may call them
// without asking. (resume also appends to `.baton/resumes.log`, derived data
// for `baton stats`; the record itself is untouched.)
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { renderDeadEnds, renderTouches } from '../core/handover';
import { checkpointJson } from '../core/publicJson';
import { renderSearchHits, searchHitJson } from '../core/searchHits';
import { MAX_SEARCH_LIMIT } from '../core/search';
import { why } from '../app/why';
import { claimJson, claimsOfSlugs, type FolderOf } from '../app/shownClaims';
import { whyOfLines } from './whyLines';
import { handoverOf } from './handoverText';
import { deadEndsOutput, projectArg, resumeOutput, searchOutput, whyOutput } from './schemas';
import { guarded, reply, type ToolContext } from './toolContext';

const onlyProject = z.string().optional().describe('Only this project and its worktrees; default: every project.');

const threadItem = { text: z.string(), session: z.string(), agent: z.string(), person: z.string(), machine: z.string(), ts: z.number(), slug: z.string(), times: z.number() };
/** The thread the hand-over lists (core/thread.ts), every item of it: the text cuts its lists. */
const threadOutput = z
  .object({
    deadEnds: z.array(z.object(threadItem)),
    decisions: z.array(z.object(threadItem)),
    settled: z.array(z.object({ ...threadItem, settledBy: z.string(), settledTs: z.number() })),
  })
  .optional()
  .describe("What the project's checkpoints ruled out and decided, newest first, each until a later checkpoint settled it.");

const READ = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const;

export function registerReadTools(server: McpServer, ctx: ToolContext): void {
  const { deps } = ctx;
  /**
   * Where claims are judged: the client's project folder (its root, else the
   * server's), for that project's checkpoints only (app/shownClaims.ts); none
   * when no project is found.
   */
  const ownFolder = async (): Promise<FolderOf> => {
    const here = await ctx.project(undefined).catch(() => null);
    return (scope) => (here && here.scope === scope ? here.folder : null);
  };

  server.registerTool(
    'resume',
    {
      title: 'Resume',
      description: "Read the project's hand-over first: what its sessions ruled out and decided, the next step, open notes, abandoned sessions.",
      inputSchema: { project: projectArg },
      outputSchema: { ...resumeOutput, thread: threadOutput },
      annotations: READ,
    },
    guarded(async (a) => {
      const { scope } = await ctx.project(a.project);
      const { view, theirs, text } = await handoverOf(deps, scope, ctx.agent());
      return reply(text, { ...view, latest: view.latest ? checkpointJson(view.latest) : null, basicMemory: theirs.map(checkpointJson) });
    }),
  );

  server.registerTool(
    'why',
    {
      title: 'Why is this file so',
      description:
        'Before changing a file: the checkpoints that touched it, newest first, with their task. With line: the session that wrote ' +
        'those lines (git blame), what it ruled out and decided.',
      inputSchema: {
        file: z.string().describe('Any form of the path, e.g. src/auth/session.ts.'),
        limit: z.number().int().min(1).max(200).optional().describe('At most this many (default 20).'),
        line: z.number().int().min(1).optional().describe('A line, 1-based.'),
        end_line: z.number().int().min(1).optional().describe('With line: the last line, inclusive.'),
      },
      outputSchema: whyOutput,
      annotations: READ,
    },
    guarded(async (a) => {
      if (a.line !== undefined || a.end_line !== undefined) return whyOfLines(ctx, a.file, a.line ?? a.end_line ?? 1, a.end_line);
      const limit = a.limit ?? 20;
      const merged = await why(deps.baton, a.file, limit, deps.basicMemoryDir);
      const { claims, unjudged } = await claimsOfSlugs(
        deps.baton,
        merged.filter((t) => t.origin === 'baton').map((t) => t.slug),
        await ownFolder(),
      );
      const touches = merged.map((t) => (claims.has(t.slug) ? { ...t, claims: (claims.get(t.slug) ?? []).map(claimJson) } : t));
      return reply(renderTouches(a.file, merged, deps.now(), claims, unjudged), { file: a.file, touches });
    }),
  );

  server.registerTool(
    'before_you_try',
    {
      title: 'Before you try',
      description: 'Before trying an approach: the recorded dead ends that match it, with who ruled each out and when.',
      inputSchema: {
        approach: z.string().describe('A few words, e.g. "mock the payment gateway".'),
        project: onlyProject,
      },
      outputSchema: deadEndsOutput,
      annotations: READ,
    },
    guarded(async (a) => {
      const deadEnds = await deps.baton.beforeYouTry(a.approach, a.project?.trim() || undefined);
      const { claims, unjudged } = await claimsOfSlugs(
        deps.baton,
        deadEnds.map((d) => d.slug),
        await ownFolder(),
      );
      // Each checkpoint's claims once, on its first dead end, as the text lists them.
      const structured = deadEnds.map((d, i) =>
        claims.has(d.slug) && deadEnds.findIndex((x) => x.slug === d.slug) === i ? { ...d, claims: (claims.get(d.slug) ?? []).map(claimJson) } : d,
      );
      return reply(renderDeadEnds(a.approach, deadEnds, claims, unjudged), { approach: a.approach, deadEnds: structured });
    }),
  );

  server.registerTool(
    'search',
    {
      title: 'Search the vault',
      description: 'Full-text search of checkpoints, notes and plans ("where did we decide the retry policy"); stemmed words, best first.',
      inputSchema: {
        query: z.string().describe('A few words; taken as plain text.'),
        project: onlyProject,
        kind: z.enum(['checkpoint', 'note', 'plan']).optional(),
        limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe('Default 20.'),
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
