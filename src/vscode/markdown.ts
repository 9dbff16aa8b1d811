// Turning text into MarkdownStrings without handing agents a way to run
// commands. Checkpoint text is untrusted (agents write it, vaults are shared),
// so it only ever enters escaped (core/hoverText's escapeMarkdown: no link,
// autolink, HTML or emphasis survives); the only links are Baton's own, and
// the only commands a hover enables are HOVER_COMMANDS. HTML stays off.
//
// escapeMarkdown rather than MarkdownString.appendText: appendText turns
// every space into `&nbsp;`, so a long task would never wrap in a hover.
import * as vscode from 'vscode';
import type { HoverBlock } from '../core/hoverText';
import { escapeMarkdown, HOVER_COMMANDS } from '../core/hoverText';

export function commandUri(command: string, args: unknown[]): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
}

/** A hover built by core/hoverText: markup as is, agent text escaped, links to Baton's commands only. */
export function hoverMarkdown(blocks: readonly HoverBlock[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = { enabledCommands: [...HOVER_COMMANDS] };
  md.supportHtml = false;
  for (const b of blocks) {
    if (b.kind === 'markup') md.appendMarkdown(b.value);
    else if (b.kind === 'text') md.appendMarkdown(escapeMarkdown(b.value));
    else if ((HOVER_COMMANDS as readonly string[]).includes(b.command)) md.appendMarkdown(`[${escapeMarkdown(b.label)}](${commandUri(b.command, b.args)})`);
  }
  return md;
}

/**
 * A tooltip: a bold first line and a paragraph per further line, all escaped,
 * no commands at all (a tooltip needs none, so none are trusted).
 */
export function textTooltip(title: string, lines: readonly string[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.appendMarkdown(`**${escapeMarkdown(title)}**`);
  for (const line of lines.flatMap((l) => l.split('\n'))) if (line.trim()) md.appendMarkdown(`\n\n${escapeMarkdown(line)}`);
  return md;
}
