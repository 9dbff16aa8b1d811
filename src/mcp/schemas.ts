// The MCP tools' argument and result schemas. Descriptions are written for the
// agent reading them: what to put in a field, and what not to.
import { z } from 'zod';

export const projectArg = z.string().optional().describe("Project name. Default: BATON_PROJECT, else your workspace's project.");

const list = (what: string) => z.array(z.string()).optional().describe(what);

/** The checkpoint's fields. Short on purpose: every agent sends these descriptions with every request (bench/tokens.ts). */
export const checkpointFields = {
  task: z.string().optional().describe('What was being done.'),
  intent: z.string().optional().describe('Why it matters.'),
  state: z.string().optional().describe('Where it stands now.'),
  decisions: list('Choices made, each with its reason.'),
  failed: list('Approaches tried and ruled out, each with why; the next agent will not retry them. Omit when none.'),
  verified: list('Claims checked, each with its evidence.'),
  blockers: list('What is broken and what it blocks.'),
  commands: list('Commands that produced the evidence.'),
  questions: list('Open questions.'),
  files: list('Files changed, relative to the project root.'),
  next: z.string().optional().describe('The one next step.'),
};

export const checkpointJsonSchema = z.object({
  session: z.string(),
  project: z.string(),
  agent: z.string(),
  task: z.string(),
  intent: z.string(),
  state: z.string(),
  decisions: z.array(z.string()),
  failed: z.array(z.string()),
  verified: z.array(z.string()),
  blockers: z.array(z.string()),
  commands: z.array(z.string()),
  questions: z.array(z.string()),
  files: z.array(z.string()),
  next: z.string(),
  handoffTo: z.string(),
  autoClosed: z.boolean(),
  git: z.object({ branch: z.string(), commit: z.string(), subject: z.string(), dirty: z.number(), files: z.array(z.string()) }),
  ts: z.number(),
  slug: z.string(),
});

const noteJson = z.object({ text: z.string(), agent: z.string(), ts: z.number(), session: z.string() });
const abandonedJson = z.object({
  session: z.string(),
  project: z.string(),
  agent: z.string(),
  task: z.string(),
  notes: z.number(),
  lastActivity: z.number(),
});

export const noteOutput = {
  project: z.string(),
  agent: z.string(),
  ts: z.number(),
  durable: z.boolean().describe('False when the vault refused the write and the note waits in the index.'),
  redactions: z.number(),
};

export const commitOutput = {
  session: z.string(),
  slug: z.string(),
  path: z.string(),
  project: z.string(),
  agent: z.string(),
  handoffTo: z.string(),
  folded: z.number().describe('Working notes folded into the State.'),
  redactions: z.number(),
  placeholdersDropped: z.array(z.string()).describe('"failed" items that were only placeholders ("none") and were not recorded.'),
};

export const resumeOutput = {
  project: z.string(),
  latest: checkpointJsonSchema.nullable(),
  uncommitted: z.array(noteJson),
  abandoned: z.array(abandonedJson),
  basicMemory: z.array(checkpointJsonSchema).describe("basic-memory's session notes of this project, newest first (when the server reads a basic-memory folder)."),
  elsewhere: z
    .array(z.object({ text: z.string(), session: z.string(), project: z.string(), agent: z.string(), ts: z.number(), slug: z.string() }))
    .optional()
    .describe('Dead ends recorded in other projects that share words with the latest task: matched by words, they may not apply here.'),
};

/** A shown checkpoint's claims judged against the client's working tree (app/shownClaims.ts ClaimJson); only where it could be. */
const claimsJson = z
  .array(
    z.object({
      claim: z.string(),
      state: z.enum(['fresh', 'stale', 'unbacked']),
      command: z.string(),
      commit: z.string(),
      files: z.number(),
      changed: z.array(z.string()),
    }),
  )
  .optional();

export const whyOutput = {
  file: z.string(),
  touches: z.array(
    z.object({
      session: z.string(),
      project: z.string(),
      agent: z.string(),
      task: z.string(),
      matched: z.string(),
      ts: z.number(),
      slug: z.string(),
      origin: z.enum(['baton', 'basic-memory']),
      claims: claimsJson,
    }),
  ),
  /** Present when lines were asked about: the sessions that wrote them (git blame). */
  lines: z
    .array(
      z.object({
        start: z.number(),
        end: z.number(),
        commit: z.string(),
        session: z.string(),
        project: z.string(),
        agent: z.string(),
        task: z.string(),
        slug: z.string(),
        ts: z.number(),
        failed: z.array(z.string()),
        decisions: z.array(z.string()),
        next: z.string(),
      }),
    )
    .optional(),
};

export const deadEndsOutput = {
  approach: z.string(),
  deadEnds: z.array(z.object({ text: z.string(), session: z.string(), project: z.string(), agent: z.string(), ts: z.number(), slug: z.string(), claims: claimsJson })),
};

export const searchOutput = {
  query: z.string(),
  hits: z.array(
    z.object({
      kind: z.enum(['checkpoint', 'note', 'plan']),
      project: z.string(),
      agent: z.string(),
      ts: z.number(),
      session: z.string(),
      slug: z.string(),
      title: z.string(),
      field: z.string(),
      snippet: z.string(),
      score: z.number(),
    }),
  ),
};
