// The Anthropic Messages API as Claude Code calls it with ANTHROPIC_BASE_URL:
// POST /v1/messages (streamed as server-sent events when `stream` is true,
// else one JSON message) and POST /v1/messages/count_tokens. Event shapes from
// docs.anthropic.com/en/api/messages-streaming: message_start, then per
// content block content_block_start / _delta (text_delta, input_json_delta) /
// _stop, then message_delta (stop_reason, usage) and message_stop.
//
// The step to answer is the number of assistant turns in the request's
// messages. Claude Code's side requests (a title, a summary, `/compact`'s
// summary) offer no tools, or none the script names, and get text; a
// compaction's summary is marked with the steps it replaced (`steps=N`), so a
// conversation resumed after it still counts where the script is.
import type * as http from 'http';
import type { RecordedRequest, ScriptedModel, Step, WireFormat } from '../scriptedModel';
import { inputOf, sse } from '../scriptedModel';

type Json = Record<string, unknown>;
interface Block {
  type: string;
  text?: string;
  name?: string;
  input?: unknown;
}
interface Message {
  role: string;
  content: string | Block[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const messagesOf = (body: unknown): Message[] => (isObject(body) && Array.isArray(body.messages) ? (body.messages as Message[]) : []);
const textOf = (m: Message): string => (typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n'));

/** The tool names a request offers (client tools; server tools have no input_schema but a name too). */
export function anthropicTools(req: RecordedRequest): string[] {
  const body = req.body;
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  return (body.tools as Json[]).map((t) => String(t.name));
}

/** The system prompt as one text (a string, or text blocks). */
export function systemText(req: RecordedRequest): string {
  const s = isObject(req.body) ? req.body.system : undefined;
  if (typeof s === 'string') return s;
  if (Array.isArray(s)) return s.map((b: Json) => String(b.text ?? '')).join('\n');
  return '';
}

const SNAPSHOT = /scripted-summary steps=(\d+)/;

/** The assistant turns a conversation holds, a compaction's summary counting as the turns it replaced. */
export function stepsDone(messages: Message[]): number {
  let done = 0;
  for (const m of messages) {
    const snap = m.role === 'user' ? SNAPSHOT.exec(textOf(m)) : null;
    if (snap) done = Number(snap[1]);
    else if (m.role === 'assistant') done++;
  }
  return done;
}

/**
 * Is this `/compact`'s summary request? Claude Code 2.1.328 sends the whole
 * conversation, its tools still listed, with a last user turn that asks
 * "Your task is to create a detailed summary of the conversation so far" and
 * to call no tool; a system turn (the hooks' output) may follow it (read from
 * the requests this tier logs).
 */
export function isCompaction(req: RecordedRequest): boolean {
  const users = messagesOf(req.body).filter((m) => m.role === 'user');
  const last = users[users.length - 1];
  return !!last && /create a detailed summary of the conversation so far/i.test(textOf(last));
}

function usageOf(prompt: number): Json {
  return { input_tokens: prompt, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

function reply(req: RecordedRequest, res: http.ServerResponse, content: Block[], stop: string, prompt: number): void {
  const body = req.body as Json;
  const id = `msg_scripted_${Date.now().toString(36)}`;
  const model = String(body.model ?? 'scripted');
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: usageOf(prompt) }));
    return;
  }
  const events: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usageOf(prompt), output_tokens: 1 } },
      },
    },
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } } });
    } else {
      const { input, ...start } = block;
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { ...start, input: {} } } });
      // Split in two, as a model streams it: the agent must join the partial JSON itself.
      const json = JSON.stringify(input);
      const cut = Math.floor(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)]) {
        events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } } });
      }
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({ event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } } });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  sse(res, events);
}

let toolSeq = 0;

export const anthropicWire: WireFormat = {
  handle(req, res, model: ScriptedModel) {
    if (req.path.startsWith('/v1/messages/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ input_tokens: Math.ceil(req.raw.length / 4) }));
    }
    if (!req.path.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `scripted model: no ${req.path}` } }));
    }
    const messages = messagesOf(req.body);
    if (isCompaction(req)) {
      const text = `<summary>scripted-summary steps=${stepsDone(messages)} The session noted, edited src/cart.js and checkpointed.</summary>`;
      return reply(req, res, [{ type: 'text', text }], 'end_turn', 100);
    }
    const answer = model.answer(stepsDone(messages), anthropicTools(req));
    const step: Step = answer.step;
    if ('tool' in step && answer.toolName) {
      const block = { type: 'tool_use', id: `toolu_scripted_${++toolSeq}`, name: answer.toolName, input: inputOf(step, answer.toolName) };
      return reply(req, res, [block], 'tool_use', step.usage ?? 100);
    }
    return reply(req, res, [{ type: 'text', text: 'text' in step ? step.text : 'Done.' }], 'end_turn', step.usage ?? 100);
  },
};
