// The shell call in a post-tool-use payload, per host (issue 26): the command,
// how it ended and how long it took where the payload says so. Hosts report
// an exit differently and some not at all; a run whose end is not stated is
// `unknown` and backs no claim.
//
// Facts:
// - Claude Code: tool_name "Bash", tool_input.command; PostToolUse "runs
//   immediately after a tool completes successfully" with tool_response
//   {stdout, stderr, interrupted}; a command that exits non-zero fails the
//   tool, which fires PostToolUseFailure instead, with `error` ("Exit code 1 …")
//   and is_interrupt (code.claude.com/docs/en/hooks, "PostToolUse input",
//   "PostToolUseFailure input"). So the event names the status.
// - Codex: PostToolUse for shell commands since 0.117.0 (openai/codex#15531)
//   under tool_name "Bash", tool_input.command. Seen in the agents' tier
//   (0.169.0, gpt-5.5's exec_command tool, test/fixtures/hooks/codex-*.json):
//   tool_response is the command's own output as a string ("" for none) and
//   nothing else; "Process exited with code N" is in what the model is told,
//   not in the hook's payload. So no words of a Codex response are read (a
//   command printing "exit code 0" would pass for Codex's verdict): only a
//   metadata.exit_code of a response that is itself an object
//   (codex-rs/hooks/src/schema.rs allows a JSON value), else unknown here;
//   the exit then comes from Codex's rollout by the call's tool_use_id
//   (app/runHooks.ts, adapters/transcripts/codexExits.ts).
// - Gemini CLI: AfterTool with tool_name "run_shell_command", tool_input.command,
//   tool_response {llmContent, returnDisplay, error?} (docs/hooks/reference.md).
//   Seen (0.61.0, test/fixtures/hooks/gemini-*.json): llmContent is
//   "Output: …" then Gemini's own lines, "Exit Code: N" only when N is not 0
//   (its shell tool: "Only included if non-zero"), "Error: …", "Signal: …",
//   "Background PIDs: …", and "Process Group PGID: N" last. So a pass states
//   no exit: a foreground run that ended (a PGID line) with no exit, error or
//   signal line is exit 0.
// - Copilot CLI: postToolUse with toolName "bash" (or "shell", "powershell"),
//   toolArgs {command}, toolResult {resultType, textResultForLlm}
//   (docs.github.com copilot-cli-reference, "Hook event input payloads").
//   Seen (1.0.102, test/fixtures/hooks/copilot-*.json): resultType "success"
//   for an exit 3 too, and the text's last line Copilot's own
//   "<shellId: N completed with exit code N>" (the docs say "<exited with
//   exit code N>": both are read). Only that last line counts: an exit in the
//   output above it is the command's words. A payload that states none
//   records `unknown`, never a pass.
// - VS Code's agent: tool_name "run_in_terminal", tool_input.command
//   (microsoft/vscode-copilot-chat src/extension/tools/common/toolNames.ts).
import type { ShellCall } from '../core/runs';
import { toolArgsOf, type Host } from './hosts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

const SHELL_TOOLS: Record<Host, RegExp> = {
  'claude-code': /^Bash$/,
  codex: /^(Bash|shell|exec_command|local_shell)$/,
  cursor: /^$/,
  gemini: /^run_shell_command$/,
  copilot: /^(bash|shell|powershell)$/,
  vscode: /^(run_in_terminal|runInTerminal|Bash)$/,
};

/** The tool names a payload must quote to be worth parsing for a run (the hook's fast path, hookCommand.ts). */
export const SHELL_TOOL_NAMES = /"(?:Bash|bash|shell|powershell|exec_command|local_shell|run_shell_command|run_in_terminal|runInTerminal)"/;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Every text a response holds (a JSON string inside it parsed), for the exit and duration stated in words. */
function responseParts(v: unknown, depth = 0): { texts: string[]; objects: Json[] } {
  const out = { texts: [] as string[], objects: [] as Json[] };
  if (depth > 3) return out;
  if (typeof v === 'string') {
    out.texts.push(v);
    if (/^\s*\{/.test(v)) {
      try {
        const inner = responseParts(JSON.parse(v) as unknown, depth + 1);
        out.texts.push(...inner.texts);
        out.objects.push(...inner.objects);
      } catch {
        // text, not JSON
      }
    }
  } else if (isObject(v)) {
    out.objects.push(v);
    for (const x of Object.values(v)) {
      const inner = responseParts(x, depth + 1);
      out.texts.push(...inner.texts);
      out.objects.push(...inner.objects);
    }
  }
  return out;
}

const EXIT_IN_TEXT = /\b(?:exit(?:ed with)?(?: exit)? code|exited with code)[:\s]+(-?\d{1,3})\b/gi;
/** Copilot's own last line (seen, and as its docs give it). */
const COPILOT_EXIT = /<(?:shellId: \d+ completed with|exited with) exit code (-?\d{1,3})>\s*$/;
const WALL_TIME = /\bWall time:\s*([\d.]+)\s*seconds?\b/i;

/** Gemini's own lines, after its "Output: …" (a command's output is never read for them). */
const GEMINI_LINE = /^(Error|Exit Code|Signal|Background PIDs|Process Group PGID): (.*)$/;

/**
 * The exit Gemini's llmContent states: its "Exit Code: N", or 0 for a run it
 * reports ended in the foreground (a PGID line) with no exit, error or signal
 * line; undefined when it says neither (cancelled, moved to the background).
 */
function geminiExit(content: string): number | undefined {
  const lines = content
    .replace(/<\/?untrusted_context>/g, '')
    .trim()
    .split('\n');
  // Gemini's lines are the last ones, each a known label: read from the end up to the first that is not one.
  const own = new Map<string, string>();
  for (let i = lines.length - 1; i > 0; i--) {
    const m = GEMINI_LINE.exec(lines[i]);
    if (!m) break;
    own.set(m[1], m[2]);
  }
  const code = own.get('Exit Code');
  if (code !== undefined) return /^-?\d+$/.test(code.trim()) ? Number(code) : undefined;
  if (own.has('Process Group PGID') && !own.has('Error') && !own.has('Signal')) return 0;
  return undefined;
}

/** The shell call a payload reports, or null when its tool is no shell of its host's. */
export function shellCallOf(v: Json, host: Host, tool: string): ShellCall | null {
  if (!SHELL_TOOLS[host].test(tool)) return null;
  const args = toolArgsOf(v);
  const raw = args.command;
  const command = typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.filter((x) => typeof x === 'string').join(' ') : '';
  if (!command.trim()) return null;
  const failureEvent = text(v.hook_event_name) === 'PostToolUseFailure';
  const response = v.tool_response ?? v.toolResult ?? v.toolResponse;
  // Codex's response string is the command's own output (see above): its words and any JSON in it are not Codex's.
  const codexOutput = host === 'codex' && !isObject(response);
  const parts = codexOutput ? { texts: [], objects: [] } : responseParts(failureEvent ? v.error : response);
  let exit: number | undefined = host === 'gemini' && isObject(response) ? geminiExit(text(response.llmContent)) : undefined;
  let durationMs: number | undefined;
  for (const o of parts.objects) {
    exit ??= num(o.exit_code) ?? num(o.exitCode);
    const secs = num(o.duration_seconds);
    durationMs ??= num(o.duration_ms) ?? num(o.durationMs) ?? (secs !== undefined ? Math.round(secs * 1000) : undefined);
  }
  // Claude Code's PostToolUse fires only for a tool that succeeded: its output's words say nothing of the exit.
  const claudeOk = host === 'claude-code' && !failureEvent;
  // Claude Code 2.1.328 states the duration beside the tool's fields, on both events (test/fixtures/hooks/claude-code-*.json).
  durationMs ??= num(v.duration_ms);
  if (host === 'copilot' && isObject(response)) {
    const m = COPILOT_EXIT.exec(text(response.textResultForLlm));
    if (m) exit = Number(m[1]);
  }
  // Gemini's and Copilot's own lines were read above; an exit elsewhere in their text is the command's words.
  const ownLinesRead = host === 'gemini' || host === 'copilot';
  for (const t of claudeOk || ownLinesRead ? [] : parts.texts) {
    if (exit === undefined) {
      // A host's own line ends its text (Claude Code's failure "Exit code N"): the last one stated counts.
      const all = [...t.matchAll(EXIT_IN_TEXT)];
      if (all.length) exit = Number(all[all.length - 1][1]);
    }
    if (durationMs === undefined) {
      const w = WALL_TIME.exec(t);
      if (w) durationMs = Math.round(Number(w[1]) * 1000);
    }
  }
  const interrupted = v.is_interrupt === true || (isObject(response) && response.interrupted === true);
  const stated = (isObject(response) ? text(response.resultType) : '') || '';
  let status: ShellCall['status'];
  if (interrupted) status = 'unknown';
  else if (exit !== undefined) status = exit === 0 ? 'passed' : 'failed';
  else if (failureEvent || stated === 'failure' || (isObject(response) && text(response.error))) status = 'failed';
  else if (claudeOk) status = 'passed';
  else status = 'unknown';
  if (status === 'passed' && exit === undefined) exit = 0;
  return { command, status, ...(exit !== undefined ? { exit } : {}), ...(durationMs !== undefined ? { durationMs } : {}) };
}
