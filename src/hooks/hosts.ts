// Which program sent a hook payload, which files it says were edited, and the
// shape its session-start answer must take. A Claude-format hook is also run
// by other hosts (Cursor and VS Code's agent read `.claude/settings*.json`,
// issue 13), so the payload, not the command line, says who is asking.
//
// Facts (see src/adapters/agents/FACTS.md for the sources of each):
// - Claude Code PostToolUse: tool_name Edit|Write|NotebookEdit (MultiEdit in
//   older versions), tool_input.file_path, NotebookEdit's tool_input.notebook_path
//   (code.claude.com/docs/en/hooks, "PostToolUse"; ericbuess/claude-code-docs docs/hooks.md).
// - Codex PostToolUse: tool_name "apply_patch", the patch text in
//   tool_input.command (openai/codex#18391); its grammar is codex-rs/apply-patch/src/parser.rs
//   (applyPatch.ts).
// - Cursor afterFileEdit: top-level file_path; every payload carries
//   cursor_version, conversation_id, workspace_roots (cupcake.eqtylab.io/reference/harnesses/cursor).
// - Gemini CLI AfterTool: tool_name write_file|replace, tool_input.file_path
//   (google-gemini/gemini-cli docs/hooks/reference.md; packages/core/src/tools/definitions/base-declarations.ts).
// - Copilot CLI postToolUse (camelCase events get camelCase payloads): sessionId,
//   timestamp, cwd, toolName, toolArgs, toolResult (docs.github.com/en/copilot/reference/
//   copilot-cli-reference/cli-command-reference, "Hook event input payloads").
//   Its edit tools, seen in the requests and hook payloads of the real 1.0.102
//   (test/agents/copilot.test.ts): `edit` and `create`, whose toolArgs is an
//   object with an absolute `path`, and for the GPT-5 codex models the freeform
//   `apply_patch`, whose toolArgs is the patch text itself, not JSON (Codex's
//   grammar, applyPatch.ts).
// - VS Code's agent hooks: every payload carries timestamp, cwd, camelCase
//   sessionId and hookEventName, and snake_case transcript_path; tool events
//   add snake_case tool_name, tool_input, tool_use_id, tool_response
//   (microsoft/vscode-docs docs/agent-customization/hooks.md, "Common input
//   fields", "PostToolUse input"; docs/agents/reference/hooks-reference.md).
//   Its tools take camelCase inputs: `create_file`, `replace_string_in_file`,
//   `insert_edit_into_file`, `edit_notebook_file` a `filePath`,
//   `multi_replace_string_in_file` `replacements[].filePath`, `apply_patch` the
//   patch in `input` (hooks.md FAQ "Tool input property names"; the names and
//   parameters in microsoft/vscode-copilot-chat src/extension/tools/common/toolNames.ts,
//   tools/node/replaceStringTool.tsx, multiReplaceStringTool.tsx); the docs'
//   examples also show `editFiles` with `tool_input.files` and `createFile`.
import { patchedFiles } from './applyPatch';

export type Host = 'claude-code' | 'codex' | 'cursor' | 'gemini' | 'copilot' | 'vscode';

/**
 * The hook Baton installs that each host runs as its own: VS Code's agent has
 * none of its own but runs Copilot CLI's hook files (`~/.copilot/hooks`,
 * `.github/hooks/*.json`), event names converted to PascalCase and `bash` used
 * on Linux and macOS (hooks.md, "How does VS Code handle Copilot CLI hook
 * configurations?"), so `baton connect copilot` is VS Code's hook too.
 */
export const OWN_HOOK_OF: Record<Host, Host> = {
  'claude-code': 'claude-code',
  codex: 'codex',
  cursor: 'cursor',
  gemini: 'gemini',
  copilot: 'copilot',
  vscode: 'copilot',
};

/** The agent name each host writes as: the one its MCP client reports, so hook notes and MCP notes fold together. VS Code's agent is GitHub Copilot. */
export const AGENT_OF: Record<Host, string> = OWN_HOOK_OF;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The host of a payload. Cursor's carry cursor_version (or its conversation_id
 * beside workspace_roots); VS Code's camelCase hookEventName (without
 * Claude's hook_event_name); Copilot CLI's camelCase toolName/toolArgs. Any
 * other payload is taken to come from the host the hook was installed for.
 */
export function detectHost(v: Json, installedFor: Host): Host {
  if ('cursor_version' in v || ('conversation_id' in v && Array.isArray(v.workspace_roots))) return 'cursor';
  if (typeof v.hookEventName === 'string' && !('hook_event_name' in v)) return 'vscode';
  if ('toolArgs' in v || 'toolName' in v) return 'copilot';
  return installedFor;
}

// Per host, the tools that edit files. Anything else (Read has a file_path
// too) records nothing: VS Code runs Claude hooks with matchers ignored.
const EDIT_TOOLS: Record<Host, RegExp> = {
  'claude-code': /^(Edit|Write|NotebookEdit|MultiEdit)$/,
  codex: /^apply_patch$/,
  cursor: /^$/,
  gemini: /^(write_file|replace)$/,
  copilot: /^(edit|create|apply_patch)$/,
  vscode:
    /^(create_file|replace_string_in_file|multi_replace_string_in_file|insert_edit_into_file|apply_patch|edit_notebook_file|editFiles|createFile|replaceString|multiReplaceString|insertEdit|applyPatch|editNotebook|Edit|Write|MultiEdit|NotebookEdit)$/i,
};

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** A tool call's arguments: Claude Code's, Codex's and Gemini's `tool_input`, Copilot CLI's `toolArgs` (an object, or JSON in a string). */
export function toolArgsOf(v: Json): Json {
  if (isObject(v.tool_input)) return v.tool_input;
  if (isObject(v.toolArgs)) return v.toolArgs;
  if (typeof v.toolArgs === 'string') {
    try {
      const parsed: unknown = JSON.parse(v.toolArgs);
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return {};
}

/** A toolArgs that is not JSON but a patch's text (it starts with the patch's first marker). */
const patchText = (v: unknown): string[] => (typeof v === 'string' && /^\s*\*\*\* Begin Patch/.test(v) ? [v] : []);

/** The tool a post-tool-use payload reports, whoever sent it. */
export const toolNameOf = (v: Json): string => text(v.tool_name) || text(v.toolName);

/** The paths, as the host wrote them, of the files a payload says were edited; [] for any other payload. */
export function editedFiles(v: Json, host: Host): string[] {
  // Cursor's afterFileEdit, and VS Code's filePath, name the file at the top level.
  const top = [...strings(v.file_path), ...strings(v.filePath)];
  if (host === 'cursor') return top;
  const tool = toolNameOf(v);
  if (!EDIT_TOOLS[host].test(tool)) return host === 'vscode' && !tool ? top : [];
  const args = toolArgsOf(v);
  if (/^apply_?patch$/i.test(tool)) {
    // Copilot CLI's freeform apply_patch sends the patch as toolArgs itself.
    const patch = [...strings(args.command), ...strings(args.input), ...strings(args.patch), ...patchText(v.toolArgs)].join('\n');
    return patchedFiles(patch);
  }
  // VS Code's multi_replace_string_in_file names a file per replacement.
  const replaced = Array.isArray(args.replacements) ? args.replacements.flatMap((r) => (isObject(r) ? strings(r.filePath) : [])) : [];
  return [...top, ...strings(args.file_path), ...strings(args.notebook_path), ...strings(args.filePath), ...strings(args.path), ...strings(args.files), ...replaced];
}

/**
 * A host's session-start answer around the hand-over text, or "" for a host
 * that reads none.
 * - Claude Code: plain stdout is added to the context (hooks.md, "Exit code 0").
 * - Codex: {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext"}}
 *   (codex-rs/hooks/schema/generated/session-start.command.output.schema.json; hookEventName required).
 * - Gemini CLI: stdout must be JSON only, the same hookSpecificOutput (docs/hooks/index.md, reference.md "SessionStart").
 * - VS Code: the same hookSpecificOutput form Claude Code also reads (hooks-reference, "SessionStart output").
 * - Cursor: {"additional_context"} (cupcake reference, "sessionStart").
 * - Copilot CLI: {"additionalContext"} at the top level, which 1.0.102 puts
 *   into the conversation as a message before the prompt; it does not read
 *   `hookSpecificOutput` there, nor plain text (both tried with the real CLI,
 *   test/agents/copilot.test.ts; its changelog 1.0.11: "sessionStart hook
 *   additionalContext is now injected into the conversation", github/copilot-cli#2142).
 *   GitHub's older hooks-configuration page, saying the output is ignored, is out of date.
 *   It passes no MCP server `instructions` to the model either (only allowlisted
 *   servers', `--allow-all-mcp-server-instructions`), so this is how Copilot gets it.
 */
export function sessionStartAnswer(host: Host, handover: string): string {
  if (!handover) return '';
  switch (host) {
    case 'claude-code':
      return handover;
    case 'cursor':
      return JSON.stringify({ additional_context: handover }) + '\n';
    case 'copilot':
      return JSON.stringify({ additionalContext: handover }) + '\n';
    default:
      return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: handover } }) + '\n';
  }
}
