// What Baton may cost an agent's requests (issue 23), counted at four
// characters a token: its MCP tools' definitions and instructions, sent with
// every request, and the hand-over a session start prints (core/handover.ts
// START_HANDOVER_CHARS). bench/tokens.ts measures both, `baton doctor` prints them.
export const TOOL_BUDGET_TOKENS = 1200;
export const START_BUDGET_TOKENS = 800;

export const tokensOf = (chars: number): number => Math.ceil(chars / 4);

/** What a client turns into the model's function declaration: the tool's name, description and input schema, as JSON. */
export const toolChars = (t: { name: string; description?: string; inputSchema?: unknown }): number =>
  JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }).length;
