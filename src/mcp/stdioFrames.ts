// What stands between process.stdin and the SDK's stdio transport. The SDK
// buffers a message by concatenating every chunk (quadratic for a big one)
// and, past its 10 MB limit, throws the buffer away and closes: the client
// waits for a reply that never comes. Here whole lines are assembled once and
// handed on; a line past MAX_MESSAGE is not buffered at all, and gets a
// JSON-RPC error reply that says how big it was and what the limit is.
import { PassThrough } from 'stream';

/** The largest message taken, in bytes (a note or a checkpoint of this size is already far past what an agent can read back). */
export const MAX_MESSAGE = 16 << 20;
const EDGE = 4096;

const mb = (bytes: number): string => `${(bytes / (1 << 20)).toFixed(1)} MB`;

/** The request id of a message seen only by its first and last few KB: the SDK client writes it last, others first. */
function idOf(head: string, tail: string): string | number | null {
  const last = /"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/.exec(tail);
  const first = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  const raw = last?.[1] ?? first?.[1];
  if (raw === undefined) return null;
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return null;
  }
}

/**
 * A stream of whole lines from `input`, one `data` event per message. A line
 * over `max` bytes is dropped and answered through `reply` with an error.
 */
export function framedInput(input: NodeJS.ReadableStream, reply: (line: string) => void, max = MAX_MESSAGE): PassThrough {
  const out = new PassThrough();
  let pieces: Buffer[] = [];
  let pending = 0;
  // A line over the limit: its size, its first bytes and a rolling window of its last.
  let over = -1;
  let head = '';
  let tail = Buffer.alloc(0);

  const refuse = (): void => {
    const id = idOf(head, tail.toString('utf8'));
    const message =
      `Baton refused a message of ${mb(over)}: its MCP server takes messages up to ${mb(max)}. Nothing of it was recorded. ` +
      'Send less text (a summary; put the bulk in a file and give its path).';
    reply(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } }) + '\n');
  };

  input.on('data', (chunk: Buffer) => {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      const part = chunk.subarray(from, nl < 0 ? chunk.length : nl + 1);
      if (over < 0 && pending + part.length > max + 1) {
        // Crossing the limit: keep only the edges from here on.
        over = pending;
        head = Buffer.concat([...pieces, part.subarray(0, EDGE)])
          .subarray(0, EDGE)
          .toString('utf8');
        pieces = [];
        pending = 0;
      }
      if (over >= 0) {
        over += part.length;
        tail = Buffer.concat([tail, part]).subarray(-EDGE);
      } else if (part.length) {
        pieces.push(Buffer.from(part));
        pending += part.length;
      }
      if (nl < 0) break;
      if (over >= 0) {
        refuse();
        over = -1;
        head = '';
        tail = Buffer.alloc(0);
      } else {
        out.write(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, pending));
        pieces = [];
        pending = 0;
      }
      from = nl + 1;
      if (from >= chunk.length) break;
    }
  });
  input.on('end', () => {
    if (pending) out.write(Buffer.concat(pieces, pending));
    out.end();
  });
  input.on('error', (err) => out.destroy(err));
  return out;
}
