// How a Codex shell call ended, from Codex's own rollout (issue 26): its
// PostToolUse payload states no exit (tool_response is the command's output
// alone, hooks/shellRun.ts). The hook reads the rollout's tail for the call's
// end record (app/runHooks.ts); where it is not there yet, the run keeps the
// rollout, the call's id and the rollout's size then, and the checkpoint
// reads on from there (app/evidence.ts).
//
// Why the checkpoint too, not the hook alone: Codex runs PostToolUse hooks inside
// its tool dispatch, after the handler returns and before the call's
// `function_call_output` is recorded, because a hook may replace that output
// (openai/codex codex-rs/core/src/tools/registry.rs, `dispatch_any`:
// `run_post_tool_use_hooks`, then the `feedback_message` replacement). The
// output line is what every version persists (codex-rs/rollout/src/policy.rs,
// `should_persist_response_item`: FunctionCallOutput); the command's end
// event is not persisted by every version (that file's newest stored version
// persists no ExecCommandEnd, and ItemCompleted only for plans). Seen with 0.169.0
// in the agents' tier: when the hook ran, the rollout held an `event_msg`
// `item_completed` {item: {type: "CommandExecution", id: <call id>,
// exit_code}} and not yet the `function_call_output` {call_id, output:
// "Chunk ID: …\nWall time: …\nProcess exited with code N\n…Output:\n<the
// command's output>"}; both were there by the checkpoint.
//
// Read as a stream from just before the hook's mark, never the whole file,
// and stopped once every call is settled. Only Codex's own words count:
// exit_code fields of its end records, and the header of an output, the
// lines before its first "Output:" line (what follows is the command's).
import * as fs from 'fs';
import { openForeign } from '../foreignFile';
import { fileLines } from './jsonlStream';

/** Where the host will record a call's end: the rollout, the call's id, the rollout's size when the hook heard of it. */
export interface CallRecordRef {
  file: string;
  callId: string;
  at: number;
}

/** The rollout's size now (0 when unreadable): where to start looking for a call the hook just heard of. */
export function rolloutSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Read from this far before the earliest mark: an end record written before the hook ran sits just before it. */
const BEFORE = 256 * 1024;
/** A line longer than this (a command's whole output in an end record) is skipped, not held. */
const MAX_LINE = 4 * 1024 * 1024;
/** Past this many bytes after the earliest mark the search stops: a call never recorded is unknown, not a reason to read gigabytes. */
const MAX_SCAN = 64 * 1024 * 1024;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const exitNum = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** The exit an output's header states (Codex's lines before "Output:"), or its JSON form's metadata.exit_code (the older shell tool). */
function exitInOutput(output: unknown): number | undefined {
  const text = typeof output === 'string' ? output : isObject(output) && typeof output.content === 'string' ? output.content : '';
  if (!text) return undefined;
  if (/^\s*\{/.test(text)) {
    try {
      const v: unknown = JSON.parse(text);
      if (isObject(v) && isObject(v.metadata)) return exitNum(v.metadata.exit_code);
    } catch {
      // a header, not JSON
    }
  }
  const cut = text.search(/^Output:/m);
  if (cut < 0) return undefined;
  const m = /^(?:Process exited with code|Exit code:) (-?\d{1,3})$/m.exec(text.slice(0, cut));
  return m ? Number(m[1]) : undefined;
}

/** What one rollout line says of a wanted call: its id and exit, and whether it is the call's last record. */
function endOf(line: Json): { id: string; exit?: number; final: boolean } | null {
  const p = isObject(line.payload) ? line.payload : null;
  if (!p) return null;
  if (line.type === 'event_msg' && p.type === 'item_completed' && isObject(p.item) && p.item.type === 'CommandExecution') {
    return { id: String(p.item.id ?? ''), exit: exitNum(p.item.exit_code), final: false };
  }
  if (line.type === 'event_msg' && p.type === 'exec_command_end') return { id: String(p.call_id ?? ''), exit: exitNum(p.exit_code), final: false };
  if (line.type === 'response_item' && p.type === 'function_call_output') return { id: String(p.call_id ?? ''), exit: exitInOutput(p.output), final: true };
  return null;
}

/**
 * The exit of each call, by id, as `file` records it; a call whose end is not
 * (yet) recorded, or states no exit, is absent. Never throws: an unreadable
 * rollout leaves its runs unknown.
 */
export function codexExits(file: string, calls: readonly { callId: string; at: number }[]): Map<string, number> {
  const found = new Map<string, number>();
  const open = new Set(calls.map((c) => c.callId).filter(Boolean));
  if (!open.size) return found;
  let opened: ReturnType<typeof openForeign>;
  try {
    // The path came in a payload: a FIFO or a device is refused, never waited on (foreignFile.ts).
    opened = openForeign(file);
  } catch {
    return found;
  }
  if (!opened) return found;
  const { fd, size } = opened;
  try {
    const from = Math.max(0, Math.min(...calls.map((c) => c.at)) - BEFORE);
    const needles = [...open].map((id) => `"${id}"`);
    // Mid-file, the first piece up to a newline is the end of a line begun before: not a record.
    const one = Buffer.alloc(1);
    let first = from > 0 && !(fs.readSync(fd, one, 0, 1, from - 1) === 1 && one[0] === 10);
    for (const { line } of fileLines(fd, from, Math.min(size, from + BEFORE + MAX_SCAN), { long: 0 }, MAX_LINE)) {
      if (first) {
        first = false;
        continue;
      }
      const text = line.toString('utf8');
      if (!needles.some((n) => text.includes(n))) continue;
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        continue;
      }
      const end = isObject(v) ? endOf(v) : null;
      if (!end || !open.has(end.id)) continue;
      // An end record's exit_code is Codex's verdict; an output's header counts only where none came before it.
      if (end.exit !== undefined && !found.has(end.id)) found.set(end.id, end.exit);
      if (end.final || end.exit !== undefined) open.delete(end.id);
      if (!open.size) break;
    }
  } catch {
    // a rollout that went away mid-read: what was found stands
  } finally {
    fs.closeSync(fd);
  }
  return found;
}
