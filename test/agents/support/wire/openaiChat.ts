// The OpenAI chat-completions wire, as Copilot CLI speaks it to a custom
// provider (COPILOT_PROVIDER_WIRE_API "completions", its default: the CLI's
// `help providers` text in the 1.0.102 package). A request is
// {model, messages: [{role, content, tool_calls?, tool_call_id?}], tools:
// [{type: "function", function: {name, description, parameters}}], stream};
// a streamed answer is SSE `data:` chunks {choices: [{index, delta:
// {role?, content? | tool_calls: [{index, id, type, function: {name,
// arguments}}]}, finish_reason}]}, a last chunk with `usage` and empty
// choices, then `data: [DONE]` (platform.openai.com/docs/api-reference/chat-streaming).
// A request without `stream: true` gets one chat.completion object.
// Copilot CLI offers some tools as "custom" (freeform) tools, {type: "custom",
// custom: {name, description, format}}: apply_patch for the GPT-5 codex models
// (seen in its requests); their calls are {type: "custom", custom: {name,
// input}} with the raw text as input (platform.openai.com/docs/guides/function-calling,
// "Custom tools"). A scripted step gives that text as `input.input`.
import type * as http from 'http';
import type { RecordedRequest, ScriptedModel, WireFormat } from '../scriptedModel';
import { inputOf, sse } from '../scriptedModel';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface ChatMessage {
  role: string;
  content: string;
}

/** The names of the tools a chat-completions request offers. */
export const chatTools = (req: RecordedRequest): string[] => chatToolDefs(req).flatMap((t) => (nameOf(t) ? [nameOf(t)] : []));

/** A tool definition's name: a function tool's, or a custom (freeform) tool's. */
export const nameOf = (t: Json): string => {
  const def = isObject(t.function) ? t.function : isObject(t.custom) ? t.custom : {};
  return typeof def.name === 'string' ? def.name : '';
};

const isCustom = (req: RecordedRequest, name: string): boolean => chatToolDefs(req).some((t) => t.type === 'custom' && nameOf(t) === name);

/** The tool definitions of a request, as sent (for measuring their size). */
export const chatToolDefs = (req: RecordedRequest): Json[] => list(isObject(req.body) ? req.body.tools : undefined).filter(isObject);

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : list(content)
        .map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : ''))
        .join('');

/** A request's messages, each with its text (content parts joined). */
export const chatMessages = (req: RecordedRequest): ChatMessage[] =>
  list(isObject(req.body) ? req.body.messages : undefined).flatMap((m) => (isObject(m) && typeof m.role === 'string' ? [{ role: m.role, content: textOf(m.content) }] : []));

// Copilot CLI compacts by asking the model, with the conversation and its
// tools, for a summary (this prompt, seen in 1.0.102's requests), then sends
// the summary instead of the answers it covers. So a summary request is
// answered with text, never a step, and the summary says how many answers it
// covers: the script's place survives the compaction.
const SUMMARY_PROMPT = /^Please create a detailed summary of the conversation so far/;
const COVERED = /\[scripted model: (\d+) answers covered\]/;

/** How many answers the model already gave in this request's conversation, counting those a summary covers. */
function answered(messages: ChatMessage[]): number {
  let base = 0;
  let from = 0;
  messages.forEach((m, i) => {
    const covered = COVERED.exec(m.content);
    if (covered) [base, from] = [Number(covered[1]), i + 1];
  });
  return base + messages.slice(from).filter((m) => m.role === 'assistant').length;
}

/** Whether the request is a compaction's summary request (its last message the summary prompt). */
export const isSummaryRequest = (req: RecordedRequest): boolean => {
  const last = chatMessages(req).at(-1);
  return last?.role === 'user' && SUMMARY_PROMPT.test(last.content);
};

let calls = 0;

/** The tool call of a step: a custom tool gets the raw text, a function tool JSON arguments. */
function callOf(req: RecordedRequest, name: string, input: Json): Json {
  const id = `call_${calls}`;
  if (!isCustom(req, name)) return { index: 0, id, type: 'function', function: { name, arguments: JSON.stringify(input) } };
  return { index: 0, id, type: 'custom', custom: { name, input: typeof input.input === 'string' ? input.input : JSON.stringify(input) } };
}

export const openaiChat: WireFormat = {
  handle(req: RecordedRequest, res: http.ServerResponse, model: ScriptedModel): void {
    if (req.method !== 'POST' || !/\/chat\/completions$/.test(req.path.split('?')[0])) {
      // Model listings and anything else the CLI probes: an empty success, so it goes on.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
      return;
    }
    const body = isObject(req.body) ? req.body : {};
    const messages = chatMessages(req);
    const summary = isSummaryRequest(req);
    const { step, toolName } = summary
      ? { step: { text: `The conversation so far, summarized. [scripted model: ${answered(messages.slice(0, -1))} answers covered]` }, toolName: undefined }
      : model.answer(answered(messages), chatTools(req));
    const usage = { prompt_tokens: step.usage ?? 100, completion_tokens: 10, total_tokens: (step.usage ?? 100) + 10 };
    const id = `chatcmpl-${++calls}`;
    const created = Math.floor(Date.now() / 1000);
    const name = String(body.model ?? 'scripted');
    const call = 'tool' in step && toolName ? callOf(req, toolName, inputOf(step, toolName)) : null;
    const content = 'text' in step ? step.text : '';
    const finish = call ? 'tool_calls' : 'stop';
    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: name,
          choices: [{ index: 0, message: { role: 'assistant', content: call ? null : content, ...(call ? { tool_calls: [call] } : {}) }, finish_reason: finish }],
          usage,
        }),
      );
      return;
    }
    const chunk = (choices: unknown[], extra: Json = {}): { data: unknown } => ({ data: { id, object: 'chat.completion.chunk', created, model: name, choices, ...extra } });
    sse(res, [
      chunk([{ index: 0, delta: { role: 'assistant', ...(call ? { content: null, tool_calls: [call] } : { content }) }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: finish }]),
      chunk([], { usage }),
      { data: '[DONE]' },
    ]);
  },
};
