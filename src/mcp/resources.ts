// The MCP resources: `baton://projects` (every project, JSON), the templates
// `baton://project/{project}/handover` (a project's hand-over, the text the
// resume tool gives, markdown) and `baton://project/{project}/plans` (its
// saved plans, in full). Read only when a client asks, they cost no request
// what the tools' schemas cost every one. The template's list enumerates the vault's
// projects and worktree scopes, so a client can offer each without guessing.
// A worktree scope's "/" is percent-encoded in the URI (kestrel%2Ffeature).
//
// API: `McpServer.registerResource(name, uri | ResourceTemplate, metadata, read)`
// and `new ResourceTemplate(uriTemplate, { list, complete })` of
// @modelcontextprotocol/sdk 1.32 (dist/esm/server/mcp.d.ts; README "Tools,
// resources, prompts" -> docs/server.md). A read returns `{ contents: [{ uri,
// mimeType, text }] }`; a thrown error becomes the JSON-RPC error (toolContext.ts).
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { renderPlans } from '../core/handover';
import { stripDeep } from '../core/quoted';
import { age } from '../core/time';
import { handoverOf } from './handoverText';
import { knownScope, scopesOf } from './projects';
import { rethrown, type ToolContext } from './toolContext';

export const PROJECTS_URI = 'baton://projects';
export const HANDOVER_TEMPLATE = 'baton://project/{project}/handover';
export const handoverUri = (scope: string): string => `baton://project/${encodeURIComponent(scope)}/handover`;
export const PLANS_TEMPLATE = 'baton://project/{project}/plans';
export const plansUri = (scope: string): string => `baton://project/${encodeURIComponent(scope)}/plans`;

const MARKDOWN = 'text/markdown';
const JSON_TYPE = 'application/json';

export function registerResources(server: McpServer, ctx: ToolContext): void {
  const { deps } = ctx;

  server.registerResource(
    'projects',
    PROJECTS_URI,
    {
      title: 'Baton projects',
      description:
        'Every project in the Baton vault: checkpoint count, last checkpoint (when, how long ago, by whom), working notes not yet ' +
        'checkpointed, abandoned sessions, worktree scopes, and the URI of its hand-over.',
      mimeType: JSON_TYPE,
    },
    rethrown(async (uri) => {
      const now = deps.now();
      const projects = (await deps.baton.continuity()).map((p) => ({
        ...p,
        lastCheckpointAge: p.lastCheckpoint ? age(now - p.lastCheckpoint) : null,
        handover: handoverUri(p.project),
      }));
      return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(stripDeep({ projects }), null, 2) }] };
    }),
  );

  server.registerResource(
    'handover',
    new ResourceTemplate(HANDOVER_TEMPLATE, {
      list: rethrown(async () => ({
        resources: scopesOf(await deps.baton.continuity()).map((scope) => ({
          uri: handoverUri(scope),
          name: `${scope} hand-over`,
          mimeType: MARKDOWN,
        })),
      })),
      complete: {
        project: async (value) => scopesOf(await deps.baton.continuity()).filter((s) => s.startsWith(value)),
      },
    }),
    {
      title: "A project's Baton hand-over",
      description: "The project's hand-over: latest checkpoint, what didn't work, working notes not yet checkpointed, abandoned sessions.",
      mimeType: MARKDOWN,
    },
    rethrown(async (uri, variables) => {
      const scope = await knownScope(deps.baton, projectOf(variables));
      const { text } = await handoverOf(deps, scope, ctx.agent());
      return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text }] };
    }),
  );

  server.registerResource(
    'plans',
    new ResourceTemplate(PLANS_TEMPLATE, {
      list: undefined,
      complete: {
        project: async (value) => scopesOf(await deps.baton.continuity()).filter((s) => s.startsWith(value)),
      },
    }),
    { title: "A project's Baton plans", description: 'The plans saved for the project, newest first, in full.', mimeType: MARKDOWN },
    rethrown(async (uri, variables) => {
      const scope = await knownScope(deps.baton, projectOf(variables));
      const text = renderPlans(scope, await deps.baton.plans(scope));
      return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text }] };
    }),
  );
}

/** The template's project, percent-decoded (a worktree scope's "/" arrives as %2F). */
function projectOf(variables: Record<string, string | string[]>): string {
  const raw = Array.isArray(variables.project) ? variables.project.join(',') : (variables.project ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
