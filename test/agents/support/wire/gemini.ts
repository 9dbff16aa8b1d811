// The Gemini API as Gemini CLI calls it through @google/genai with
// GOOGLE_GEMINI_BASE_URL: POST /v1beta/models/MODEL:streamGenerateContent?alt=sse
// for the agent's loop (SSE chunks of GenerateContentResponse), and
// :generateContent for its side requests (JSON-schema'd checks such as the
// next speaker or the model router, and the chat compression's summary and
// its verification), :countTokens now and then. Shapes read from the pinned
// bundle (@google/gemini-cli 0.61.0, bundle/chunk-*.js: ChatCompressionService,
// GeminiChat's stream handling) and ai.google.dev/api/generate-content.
//
// The step to answer is the number of model turns in the request's contents,
// except that Gemini's compression replaces the history by a summary (a user
// turn) and an acknowledgement (a model turn): the summary this wire writes
// carries how many model turns it replaced (`steps=N`), so a request after a
// compression still counts where the script is.
import type * as http from 'http';
import type { Answer, RecordedRequest, ScriptedModel, WireFormat } from '../scriptedModel';
import { inputOf, sse } from '../scriptedModel';

type Json = Record<string, unknown>;
interface Part {
  text?: string;
  functionCall?: { name: string; args: unknown };
  functionResponse?: { name: string; response: unknown };
  thought?: boolean;
}
interface Content {
  role?: string;
  parts?: Part[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const contentsOf = (body: unknown): Content[] => (isObject(body) && Array.isArray(body.contents) ? (body.contents as Content[]) : []);
const textOf = (c: Content): string => (c.parts ?? []).map((p) => p.text ?? '').join('');

/** What ChatCompressionService puts after the summary (the bundle's `extraHistory`). */
const ACK = 'Got it. Thanks for the additional context!';
const SNAPSHOT = /<state_snapshot>\s*steps=(\d+)/;

/** The tool names a request offers: every function declaration of its `tools`. */
export function geminiTools(req: RecordedRequest): string[] {
  const body = req.body;
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  return (body.tools as Json[]).flatMap((t) => (Array.isArray(t.functionDeclarations) ? (t.functionDeclarations as Json[]).map((d) => String(d.name)) : []));
}

/** The model turns a conversation holds, a compression's summary counting as the turns it replaced. */
export function stepsDone(contents: Content[]): number {
  let done = 0;
  for (const c of contents) {
    const text = textOf(c);
    const snap = SNAPSHOT.exec(text);
    if (snap) done = Number(snap[1]);
    else if (c.role === 'model' && text !== ACK) done++;
  }
  return done;
}

/** Which kind of request: the agent's loop, its compression summary, a schema'd check, a token count. */
export function requestKind(req: RecordedRequest): 'loop' | 'summary' | 'json' | 'count' | 'other' {
  if (req.path.includes(':countTokens')) return 'count';
  const body = req.body;
  const system = isObject(body) && isObject(body.systemInstruction) ? textOf(body.systemInstruction as Content) : '';
  const config = isObject(body) && isObject(body.generationConfig) ? body.generationConfig : {};
  if (system.includes('state_snapshot')) return 'summary';
  if (config.responseJsonSchema || config.responseSchema || config.responseMimeType === 'application/json') return 'json';
  if (req.path.includes(':streamGenerateContent') || req.path.includes(':generateContent')) return 'loop';
  return 'other';
}

/** A value that satisfies a JSON schema, choosing what ends a check quietly: the user speaks next, no loop, the first choice. */
function valueFor(schema: unknown): unknown {
  if (!isObject(schema)) return '';
  const type = String(schema.type ?? '').toLowerCase();
  if (Array.isArray(schema.enum)) return schema.enum.includes('user') ? 'user' : schema.enum[0];
  if (type === 'object' || isObject(schema.properties)) {
    const props = isObject(schema.properties) ? schema.properties : {};
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valueFor(v)]));
  }
  if (type === 'array') return [];
  // Integers are scores on 1-100 scales (the router's complexity), numbers confidences (the loop check's): the lowest of each.
  if (type === 'integer') return 1;
  if (type === 'number') return 0;
  if (type === 'boolean') return false;
  return 'scripted';
}

function usage(prompt: number): Json {
  return { promptTokenCount: prompt, candidatesTokenCount: 10, totalTokenCount: prompt + 10 };
}

function candidate(parts: Part[], prompt = 100): Json {
  return { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: usage(prompt), modelVersion: 'scripted' };
}

function send(req: RecordedRequest, res: http.ServerResponse, response: Json): void {
  if (req.path.includes(':streamGenerateContent')) return sse(res, [{ data: response }]);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(response));
}

export const geminiWire: WireFormat = {
  handle(req, res, model: ScriptedModel) {
    const kind = requestKind(req);
    const contents = contentsOf(req.body);
    if (kind === 'count') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ totalTokens: Math.ceil(req.raw.length / 4) }));
    }
    if (kind === 'summary') {
      // The summary and its verification both answer the snapshot of the turns being replaced.
      return send(req, res, candidate([{ text: `<state_snapshot>steps=${stepsDone(contents)} the scripted session so far</state_snapshot>` }]));
    }
    if (kind === 'json') {
      const config = (req.body as Json).generationConfig as Json;
      return send(req, res, candidate([{ text: JSON.stringify(valueFor(config.responseJsonSchema ?? config.responseSchema)) }]));
    }
    const answer: Answer = model.answer(stepsDone(contents), geminiTools(req));
    const step = answer.step;
    if ('tool' in step && answer.toolName) {
      return send(req, res, candidate([{ functionCall: { name: answer.toolName, args: inputOf(step, answer.toolName) } }], step.usage));
    }
    return send(req, res, candidate([{ text: 'text' in step ? step.text : 'Done.' }], step.usage));
  },
};
