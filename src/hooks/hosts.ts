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
// - Copilot CLI postToolUse (camelCase events get camelCase payloads): timestamp,
//   cwd, toolName, toolArgs (an object, or its JSON text), toolResult; the edit
//   tools are `edit` and `create` with `path` (docs.github.com/en/copilot/reference/
//   copilot-cli-reference/cli-command-reference, "Hook event input payloads").
// - VS Code's agent hooks (Local harness): camelCase sessionId, hookEventName,
//   tool_name such as editFiles with tool_input.files, or a filePath
//   (code.visualstudio.com/docs/agents/reference/hooks-reference; issue 13).
import { patchedFiles } from './applyPatch';

export type Host = 'claude-code' | 'codex' | 'cursor' | 'gemini' | 'copilot' | 'vscode';

/** The agent name each host writes as: the one its MCP client reports, so hook notes and MCP notes fold together. VS Code's agent is GitHub Copilot. */
export const AGENT_OF: Record<Host, string> = {
  'claude-code': 'claude-code',
  codex: 'codex',
  cursor: 'cursor',
  gemini: 'gemini',
  copilot: 'copilot',
  vscode: 'copilot',
};

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
  copilot: /^(edit|create|write|str_replace|apply_patch)$/,
  vscode: /^(editFiles|createFile|replaceString|multiReplaceString|insertEdit|applyPatch|editNotebook|createNewJupyterNotebook|Edit|Write|MultiEdit|NotebookEdit)$/i,
};

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

function argsOf(v: Json): Json {
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

/** The tool a post-tool-use payload reports, whoever sent it. */
export const toolNameOf = (v: Json): string => text(v.tool_name) || text(v.toolName);

/** The paths, as the host wrote them, of the files a payload says were edited; [] for any other payload. */
export function editedFiles(v: Json, host: Host): string[] {
  // Cursor's afterFileEdit, and VS Code's filePath, name the file at the top level.
  const top = [...strings(v.file_path), ...strings(v.filePath)];
  if (host === 'cursor') return top;
  const tool = toolNameOf(v);
  if (!EDIT_TOOLS[host].test(tool)) return host === 'vscode' && !tool ? top : [];
  const args = argsOf(v);
  if (/^apply_?patch$/i.test(tool)) {
    const patch = [...strings(args.command), ...strings(args.input), ...strings(args.patch)].join('\n');
    return patchedFiles(patch);
  }
  return [...top, ...strings(args.file_path), ...strings(args.notebook_path), ...strings(args.filePath), ...strings(args.path), ...strings(args.files)];
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
 * - Copilot CLI: sessionStart output is ignored (docs.github.com/en/copilot/reference/hooks-configuration):
 *   nothing is printed; its hand-over comes through Baton's MCP tools.
 */
export function sessionStartAnswer(host: Host, handover: string): string {
  if (!handover) return '';
  switch (host) {
    case 'claude-code':
      return handover;
    case 'cursor':
      return JSON.stringify({ additional_context: handover }) + '\n';
    case 'copilot':
      return '';
    default:
      return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: handover } }) + '\n';
  }
}
