// Baton as VS Code language-model tools, so Copilot agent mode can note,
// checkpoint, hand off, resume and ask why without an MCP server. The names,
// descriptions and input schemas the model sees are declared in package.json
// (`contributes.languageModelTools`); this file answers the calls. Older VS
// Code builds without `vscode.lm.registerTool` simply get no tools.
import * as vscode from 'vscode';
import type { Baton } from '../core/baton';
import type { CheckpointFields, GitState } from '../core/model';
import { renderHandover, renderTouches } from '../core/handover';
import { safeScope } from '../core/names';
import { placeholderNotice, splitPlaceholders } from '../mcp/placeholders';
import { recordResume } from '../stats/resumeLog';

/** The agent name Copilot's writes are recorded under unless the model names another. */
export const DEFAULT_LM_AGENT = 'copilot';

export const LM_TOOL_NAMES = ['baton_note', 'baton_checkpoint', 'baton_handoff', 'baton_resume', 'baton_why'] as const;

export interface LmToolsOptions {
  /** Told after each write, so views show it without waiting for the file watcher. */
  changed?(scope: string): void;
  /** Git state for a checkpoint of `scope` (the extension knows which folder is that project, and whether git may run). */
  gitState?(scope: string): Promise<GitState | undefined>;
}

interface FieldInput {
  project?: string;
  agent?: string;
  task?: string;
  intent?: string;
  state?: string;
  next?: string;
  decisions?: string[];
  failed?: string[];
  verified?: string[];
  blockers?: string[];
  commands?: string[];
  questions?: string[];
  files?: string[];
}

const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function fieldsOf(i: FieldInput): Partial<CheckpointFields> {
  return {
    task: text(i.task),
    intent: text(i.intent),
    state: text(i.state),
    next: text(i.next),
    decisions: texts(i.decisions),
    failed: texts(i.failed),
    verified: texts(i.verified),
    blockers: texts(i.blockers),
    commands: texts(i.commands),
    questions: texts(i.questions),
    files: texts(i.files),
  };
}

const result = (s: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(s)]);

/**
 * Registers the five tools if this VS Code has the API; returns whether it
 * did. `baton` may be a getter, because the extension rebuilds its core when
 * the vault setting changes; `getScope` is the workspace's project. Every
 * failure becomes the tool's text (the model reads why), never a throw into chat.
 */
export function registerLmTools(
  context: vscode.ExtensionContext,
  baton: Baton | (() => Baton),
  getScope: () => string | undefined,
  options: LmToolsOptions = {},
): boolean {
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
  const written = (scope: string): void => options.changed?.(scope);

  const commit = async (input: FieldInput & { to?: string }, to?: string): Promise<string> => {
    const scope = scopeOf(input.project);
    const fields = fieldsOf(input);
    const { kept, dropped } = splitPlaceholders(fields.failed ?? []);
    fields.failed = kept;
    const git = await options.gitState?.(scope);
    const r = await core().commit({ scope, agent: agentOf(input.agent), fields, handoffTo: to, git });
    written(scope);
    return [
      `${to ? `Handed off to ${r.checkpoint.handoffTo}` : 'Checkpoint'} ${r.checkpoint.session} written in ${scope}: ${r.path}`,
      r.folded ? `Folded ${r.folded} working note(s).` : '',
      r.redactions ? `Masked ${r.redactions} secret(s).` : '',
      placeholderNotice(kept, dropped),
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
          written(scope);
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
          const b = core();
          const view = await b.resume(scope);
          const now = Math.floor(Date.now() / 1000);
          recordResume(b.vaultRoot, { ts: now, project: scope, agent: agentOf(i.agent), via: 'vscode' });
          return renderHandover(view, now);
        }),
        prepareInvocation: () => ({ invocationMessage: "Reading the project's Baton hand-over" }),
      },
    ],
    [
      'baton_why',
      {
        invoke: guard<{ file?: string; limit?: number }>(async (i) => {
          const file = text(i.file);
          const touches = await core().why(file, typeof i.limit === 'number' && i.limit > 0 ? Math.floor(i.limit) : 20);
          return renderTouches(file, touches, Math.floor(Date.now() / 1000));
        }),
        prepareInvocation: () => ({ invocationMessage: 'Asking Baton which sessions touched the file' }),
      },
    ],
  ];
  for (const [name, tool] of tools) context.subscriptions.push(lm.registerTool(name, tool));
  return true;
}
