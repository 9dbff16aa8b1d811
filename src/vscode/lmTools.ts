// Baton as VS Code language-model tools, so Copilot agent mode can note,
// checkpoint, hand off, resume, ask why and search without an MCP server. The names,
// descriptions and input schemas the model sees are declared in package.json
// (`contributes.languageModelTools`); this file answers the calls. Older VS
// Code builds without `vscode.lm.registerTool` simply get no tools.
import * as vscode from 'vscode';
import type { Baton } from '../core/baton';
import { renderHandover, renderTouches } from '../core/handover';
import { renderSearchHits } from '../core/searchHits';
import { safeScope } from '../core/names';
import { checkpointFields, type LooseFields } from '../app/checkpointFields';
import { commitCheckpoint } from '../app/commit';
import { resume } from '../app/resume';
import { basicMemoryDir, why } from '../app/why';
import type { CommitPlace } from './workspaceGit';
import { whyOfLines } from './lmWhyLines';

/** The agent name Copilot's writes are recorded under unless the model names another. */
export const DEFAULT_LM_AGENT = 'copilot';

export const LM_TOOL_NAMES = ['baton_note', 'baton_checkpoint', 'baton_handoff', 'baton_resume', 'baton_why', 'baton_search'] as const;

export interface LmToolsOptions {
  /** The folder a checkpoint of `scope` is committed from, and whether git may run there (the extension knows both). */
  place?(scope: string): CommitPlace;
}

interface FieldInput extends LooseFields {
  project?: string;
  agent?: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

const result = (s: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);

/**
 * Registers the tools if this VS Code has the API; returns whether it
 * did. `baton` may be a getter, because the extension rebuilds its core when
 * the vault setting changes; `getScope` is the workspace's project. Every
 * failure becomes the tool's text (the model reads why), never a throw into chat.
 */
export function registerLmTools(context: vscode.ExtensionContext, baton: Baton | (() => Baton), getScope: () => string | undefined, options: LmToolsOptions = {}): boolean {
  const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
  if (typeof lm?.registerTool !== 'function') return false;
  const core = typeof baton === 'function' ? baton : () => baton;
  const scopeOf = (given: string | undefined): string => {
    if (given?.trim()) return safeScope(given);
    const scope = getScope();
    if (!scope) throw new Error('No project: this window has no Baton project. Pass "project", or open a project folder.');
    return scope;
  };
  const agentOf = (given: string | undefined): string => given?.trim() || DEFAULT_LM_AGENT;
  const guard =
    <T>(fn: (input: T) => Promise<string>) =>
    async (options: vscode.LanguageModelToolInvocationOptions<T>): Promise<vscode.LanguageModelToolResult> => {
      try {
        return result(await fn(options.input ?? ({} as T)));
      } catch (err) {
        return result(`Baton could not do that: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
  const commit = async (input: FieldInput & { to?: string }, to?: string): Promise<string> => {
    const scope = scopeOf(input.project);
    const r = await commitCheckpoint(core(), { scope, agent: agentOf(input.agent), fields: checkpointFields(input), handoffTo: to, ...options.place?.(scope), byAgent: true });
    return [
      `${to ? `Handed off to ${r.checkpoint.handoffTo}` : 'Checkpoint'} ${r.checkpoint.session} written in ${scope}: ${r.path}`,
      r.folded ? `Folded ${r.folded} working note(s).` : '',
      r.redactions ? `Masked ${r.redactions} secret(s).` : '',
      r.placeholderNotice,
    ]
      .filter(Boolean)
      .join('\n');
  };

  const tools: [string, vscode.LanguageModelTool<never>][] = [
    [
      'baton_note',
      {
        invoke: guard<{ text?: string; project?: string; agent?: string }>(async (i) => {
          const scope = scopeOf(i.project);
          const r = await core().note(scope, agentOf(i.agent), text(i.text));
          return `Noted in ${scope} as ${r.note.agent}.${r.durable ? '' : ` Not yet durable: ${r.reason}`}`;
        }),
        prepareInvocation: () => ({ invocationMessage: 'Recording a Baton working note' }),
      },
    ],
    ['baton_checkpoint', { invoke: guard<FieldInput>((i) => commit(i)), prepareInvocation: () => ({ invocationMessage: 'Committing a Baton checkpoint' }) }],
    [
      'baton_handoff',
      {
        invoke: guard<FieldInput & { to?: string }>(async (i) => {
          if (!text(i.to).trim()) throw new Error('Who takes over? Give "to".');
          return commit(i, text(i.to));
        }),
        prepareInvocation: () => ({ invocationMessage: 'Handing off with a Baton checkpoint' }),
      },
    ],
    [
      'baton_resume',
      {
        invoke: guard<{ project?: string; agent?: string }>(async (i) => {
          const scope = scopeOf(i.project);
          const now = Math.floor(Date.now() / 1000);
          const view = await resume(core(), scope, { agent: agentOf(i.agent), via: 'vscode', now, elsewhere: true });
          return renderHandover(view, now);
        }),
        prepareInvocation: () => ({ invocationMessage: "Reading the project's Baton hand-over" }),
      },
    ],
    [
      'baton_why',
      {
        invoke: guard<{ file?: string; limit?: number; line?: number; endLine?: number }>(async (i) => {
          const file = text(i.file);
          if (typeof i.line === 'number' || typeof i.endLine === 'number') return whyOfLines(core(), file, i.line ?? i.endLine ?? 1, i.endLine);
          // The CLI's and the MCP server's why: basic-memory's sessions beside Baton's when BATON_BASIC_MEMORY names a folder.
          const touches = await why(core(), file, typeof i.limit === 'number' && i.limit > 0 ? Math.floor(i.limit) : 20, basicMemoryDir(undefined));
          return renderTouches(file, touches, Math.floor(Date.now() / 1000));
        }),
        prepareInvocation: () => ({ invocationMessage: 'Asking Baton which sessions touched the file' }),
      },
    ],
    [
      'baton_search',
      {
        invoke: guard<{ query?: string; project?: string; kind?: string; limit?: number }>(async (i) => {
          const query = text(i.query);
          const limit = typeof i.limit === 'number' && i.limit > 0 ? Math.floor(i.limit) : undefined;
          const hits = await core().search({ query, project: text(i.project).trim() || undefined, kind: text(i.kind) || undefined, limit });
          return renderSearchHits(query, hits, Math.floor(Date.now() / 1000));
        }),
        prepareInvocation: () => ({ invocationMessage: 'Searching the Baton vault' }),
      },
    ],
  ];
  for (const [name, tool] of tools) context.subscriptions.push(lm.registerTool(name, tool));
  return true;
}
