// The OpenAI Responses wire with SSE, as Codex CLI 0.169.0 speaks it to a
// `[model_providers.NAME]` with `wire_api = "responses"`: POST
// `${base_url}/responses` (base_url ending in /v1), a body {model, input:
// [items], tools, tool_choice, stream: true, …} with no `instructions` (the
// system prompt is the first `developer` message of `input`). Seen in the
// requests the real CLI sent to this server; the item shapes are Codex's own
// (`codex app-server generate-ts`, ResponseItem.ts).
//
// Tools come three ways: `{type: "function", name}`, `{type: "custom", name}`
// (apply_patch, a freeform tool: its call carries the patch as `input` text,
// not JSON), and `{type: "namespace", name: "mcp__baton", tools: [...]}`; a
// model whose metadata says so (gpt-5.5) gets MCP tools deferred behind a
// client-executed `{type: "tool_search"}` instead, whose `tool_search_output`
// item in the next request's input holds the namespaces found. Names are
// offered to the script as `mcp__baton__checkpoint` (namespace + "__" + name).
//
// The answer is SSE: response.created, response.output_item.added, for text
// response.output_text.delta, for a function call
// response.function_call_arguments.delta/done, response.output_item.done, and
// response.completed with usage {input_tokens, output_tokens, total_tokens};
// Codex compacts when input_tokens pass `model_auto_compact_token_limit`.
import type * as http from 'http';
import type { RecordedRequest, ScriptedModel, Step, WireFormat } from '../scriptedModel';
import { inputOf, sse } from '../scriptedModel';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface OfferedTool {
  /** As the script matches it: `mcp__baton__checkpoint`, `apply_patch`. */
  name: string;
  /** The name the call must carry, and its namespace when it has one. */
  call: { name: string; namespace?: string };
  custom: boolean;
  def: Json;
}

const inputItems = (req: RecordedRequest): Json[] => list(isObject(req.body) ? req.body.input : undefined).filter(isObject);

function flatten(tools: unknown[]): OfferedTool[] {
  return tools.filter(isObject).flatMap((t): OfferedTool[] => {
    if (t.type === 'namespace' && typeof t.name === 'string') {
      const ns = t.name;
      return list(t.tools)
        .filter(isObject)
        .flatMap((f) => (typeof f.name === 'string' ? [{ name: `${ns}__${f.name}`, call: { name: f.name, namespace: ns }, custom: false, def: f }] : []));
    }
    if ((t.type === 'function' || t.type === 'custom') && typeof t.name === 'string') return [{ name: t.name, call: { name: t.name }, custom: t.type === 'custom', def: t }];
    return [];
  });
}

/** Every tool a request offers: its `tools`, and those a tool_search in its conversation loaded. */
export function offeredTools(req: RecordedRequest): OfferedTool[] {
  const loaded = inputItems(req)
    .filter((i) => i.type === 'tool_search_output')
    .flatMap((i) => list(i.tools));
  return [...flatten(list(isObject(req.body) ? req.body.tools : undefined)), ...flatten(loaded)];
}

export const responsesTools = (req: RecordedRequest): string[] => offeredTools(req).map((t) => t.name);

/** The request's tool definitions as sent, deferred ones (tool_search results) included: for measuring their size. */
export const responsesToolDefs = (req: RecordedRequest): Json[] => [
  ...list(isObject(req.body) ? req.body.tools : undefined).filter(isObject),
  ...inputItems(req)
    .filter((i) => i.type === 'tool_search_output')
    .flatMap((i) => list(i.tools).filter(isObject)),
];

export interface InputMessage {
  role: string;
  text: string;
}

/** The request's messages (developer, user, assistant), each with its text parts joined. */
export const responsesMessages = (req: RecordedRequest): InputMessage[] =>
  inputItems(req).flatMap((i) =>
    i.type === 'message' && typeof i.role === 'string'
      ? [
          {
            role: i.role,
            text: list(i.content)
              .map((c) => (isObject(c) && typeof c.text === 'string' ? c.text : ''))
              .join('\n'),
          },
        ]
      : [],
  );

// Codex's local compaction asks the model, in a request of its own, for a
// summary: its last user message is the compaction prompt (codex-rs
// core/templates/compact/prompt.md, "CONTEXT CHECKPOINT COMPACTION"). The
// history after it holds that summary instead of the turns, so the summary
// this server writes carries how many answers the conversation had, and a
// later request counts from there: the script stays stateless.
const COMPACT_PROMPT = /CONTEXT CHECKPOINT COMPACTION/i;
const MARK = /\[scripted model: (\d+) answers before this summary\]/;

export const isCompactionRequest = (req: RecordedRequest): boolean => {
  const users = responsesMessages(req).filter((m) => m.role === 'user');
  return users.length > 0 && COMPACT_PROMPT.test(users[users.length - 1].text);
};

/** How many answers the model already gave in this conversation (tool searches are Codex's plumbing, not script steps). */
function answered(req: RecordedRequest): number {
  let n = 0;
  for (const i of inputItems(req)) {
    if (i.type === 'function_call' || i.type === 'custom_tool_call') n++;
    else if (i.type === 'message' && i.role === 'assistant') n++;
    else if (i.type === 'message') {
      const m = MARK.exec(
        list(i.content)
          .map((c) => (isObject(c) && typeof c.text === 'string' ? c.text : ''))
          .join('\n'),
      );
      if (m) n += Number(m[1]);
    }
  }
  return n;
}

/** Words of a tool pattern, for a tool_search query (`/^mcp__baton__note_progress$/` -> "mcp baton note progress"): Codex ranks tools by BM25 over words. */
const queryOf = (tool: RegExp): string => tool.source.replace(/[^A-Za-z0-9]+/g, ' ').trim();

/**
 * Has the model searched for tools in vain since its last answer? Codex
 * starts MCP servers beside its first request (0.169.0: a search before
 * Baton's server answered comes back empty, and a developer message "Added
 * deferred tool namespaces" follows once it has), so an empty search is
 * tried again after that message, or up to SEARCHES times while none came;
 * a search that found tools is not repeated.
 */
const SEARCHES = 12;
const searchedInVain = (req: RecordedRequest): boolean => {
  const items = inputItems(req);
  let empty = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it.type === 'tool_search_output' && list(it.tools).length > 0) return true;
    if (it.type === 'tool_search_output') empty++;
    if (it.type === 'function_call' || it.type === 'custom_tool_call' || (it.type === 'message' && it.role === 'assistant')) break;
    if (it.type === 'message' && /deferred tool namespaces/i.test(JSON.stringify(it.content))) return false;
  }
  return empty >= SEARCHES;
};

let calls = 0;

export const openaiResponses: WireFormat = {
  handle(req: RecordedRequest, res: http.ServerResponse, model: ScriptedModel): void {
    if (req.method !== 'POST' || !/\/responses$/.test(req.path.split('?')[0])) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
      return;
    }
    const n = ++calls;
    const id = `resp_${n}`;
    const offered = offeredTools(req);
    const done = answered(req);
    let step: Step;
    let item: Json;
    if (isCompactionRequest(req)) {
      step = { text: `Summary of the work so far. [scripted model: ${done} answers before this summary]` };
    } else {
      const next = model.script[done];
      const searchable =
        offered.some((t) => t.def.type === 'tool_search' || t.name === 'tool_search') ||
        list(isObject(req.body) ? req.body.tools : undefined).some((t) => isObject(t) && t.type === 'tool_search');
      if (next && 'tool' in next && !offered.some((t) => next.tool.test(t.name)) && searchable && !searchedInVain(req)) {
        // Deferred MCP tools: search for them first, as a model would.
        item = { type: 'tool_search_call', id: `ts_${n}`, call_id: `call_${n}`, status: 'completed', execution: 'client', arguments: { query: queryOf(next.tool), limit: 20 } };
        return respond(res, id, item, next.usage);
      }
      step = model.answer(
        done,
        offered.map((t) => t.name),
      ).step;
    }
    if ('tool' in step) {
      const tool = offered.find((t) => step.tool.test(t.name))!;
      const input = inputOf(step, tool.name);
      item = tool.custom
        ? { type: 'custom_tool_call', id: `ctc_${n}`, status: 'completed', call_id: `call_${n}`, name: tool.call.name, input: String(input.input ?? '') }
        : {
            type: 'function_call',
            id: `fc_${n}`,
            status: 'completed',
            call_id: `call_${n}`,
            name: tool.call.name,
            ...(tool.call.namespace ? { namespace: tool.call.namespace } : {}),
            arguments: JSON.stringify(input),
          };
    } else {
      item = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
    }
    respond(res, id, item, step.usage);
  },
};

function respond(res: http.ServerResponse, id: string, item: Json, usage: number | undefined): void {
  const input = usage ?? 100;
  const events: { event: string; data: Json }[] = [];
  const ev = (type: string, data: Json): void => void events.push({ event: type, data: { type, ...data } });
  ev('response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } });
  const opened =
    item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : item.type === 'function_call' ? { ...item, status: 'in_progress', arguments: '' } : item;
  ev('response.output_item.added', { output_index: 0, item: opened });
  if (item.type === 'message') {
    const text = String((list(item.content)[0] as Json).text);
    ev('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: text });
    ev('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text });
  } else if (item.type === 'function_call') {
    ev('response.function_call_arguments.delta', { item_id: item.id, output_index: 0, delta: item.arguments });
    ev('response.function_call_arguments.done', { item_id: item.id, output_index: 0, arguments: item.arguments });
  }
  ev('response.output_item.done', { output_index: 0, item });
  ev('response.completed', {
    response: { id, object: 'response', status: 'completed', output: [item], usage: { input_tokens: input, output_tokens: 10, total_tokens: input + 10 } },
  });
  sse(res, events);
}
