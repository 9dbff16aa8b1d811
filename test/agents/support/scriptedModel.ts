// A scripted stand-in for the model behind an agent CLI: a local HTTP server
// that logs every request and answers from a script. It replaces the model
// only; the agent, its hooks, MCP client, transcripts and trust rules are the
// real ones. The script is read statelessly from each request: the number of
// answers the model already gave in that request's conversation is the
// index of the step to answer with, so retries, side requests (titles,
// summaries) and compaction restarts cannot shift it. Tool names come from
// the request's own tool list (each agent prefixes MCP tools its own way).
// The wire formats (support/wire/*.ts) turn a step into their protocol.
import * as http from 'http';
import type { AddressInfo } from 'net';

export type Input = Record<string, unknown>;

/** Call the first tool of the request whose name matches `tool`. */
export interface ToolStep {
  tool: RegExp;
  input: Input | ((name: string) => Input);
  usage?: number;
}

export type Step =
  | ToolStep
  /** Answer with text (ends the agent's turn). `usage` reports that many prompt tokens, to make an agent compact. */
  | { text: string; usage?: number };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  /** The body parsed as JSON, or undefined. */
  body: unknown;
}

/** What a wire format decides for one request. */
export interface Answer {
  step: Step;
  /** The tool's name as the request spells it (for tool steps). */
  toolName?: string;
}

export interface WireFormat {
  /** Writes the response to one request. */
  handle(req: RecordedRequest, res: http.ServerResponse, model: ScriptedModel): void;
}

const FINAL: Step = { text: 'Done.' };

export class ScriptedModel {
  readonly requests: RecordedRequest[] = [];
  constructor(readonly script: Step[]) {}

  /**
   * The answer to a conversation in which the model already answered `done`
   * times, offering `tools`. Past the script's end, or when a scripted tool is
   * not offered (a side request without tools), the answer is text.
   */
  answer(done: number, tools: string[]): Answer {
    const step = this.script[done] ?? FINAL;
    if (!('tool' in step)) return { step };
    const name = tools.find((t) => step.tool.test(t));
    if (!name) return { step: tools.length ? { text: `No tool matching ${step.tool} among: ${tools.join(', ')}` } : FINAL };
    return { step, toolName: name };
  }

  /** The requests that offered a tool matching `tool`: the agent's own loop, not its side requests. */
  loopRequests(tools: (req: RecordedRequest) => string[], tool: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => tools(r).some((t) => tool.test(t)));
  }
}

export const inputOf = (step: ToolStep, name: string): Input => (typeof step.input === 'function' ? step.input(name) : step.input);

export interface RunningModel {
  /** http://127.0.0.1:PORT */
  url: string;
  model: ScriptedModel;
  close(): Promise<void>;
}

export function startModel(wire: WireFormat, script: Step[]): Promise<RunningModel> {
  const model = new ScriptedModel(script);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body };
      model.requests.push(recorded);
      try {
        wire.handle(recorded, res, model);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted model: ${(err as Error).stack}` } }));
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        model,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Writes `events` as a server-sent event stream (`event:` lines when named) and ends it. */
export function sse(res: http.ServerResponse, events: { event?: string; data: unknown }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`);
  res.end();
}

/** Characters over four: the estimate the issue's budget is stated in. */
export const tokens = (chars: number): number => Math.ceil(chars / 4);

/** Prints Baton's share of one request as a table row: each part's characters and tokens, their sum, and the whole request's. */
export function printShare(agent: string, parts: [label: string, chars: number][], requestChars: number): void {
  const total = parts.reduce((n, [, c]) => n + c, 0);
  console.log(
    `      | ${agent} | ${parts.map(([l, c]) => `${l} ${c} ch (~${tokens(c)} tok)`).join(' | ')} | Baton ~${tokens(total)} tok of ~${tokens(requestChars)} tok in the request |`,
  );
}
