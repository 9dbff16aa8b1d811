// Commands take an optional argument object, so keybindings, hover links, tree
// items and tests can run them without prompts. Whatever arrives is checked
// here: a hover link's arguments come from a URI, a keybinding's from a
// person's settings, neither is to be trusted for shape.
import * as vscode from 'vscode';
import { BatonError } from '../../core/errors';
import type { Log } from '../log';

export type Args = Record<string, unknown>;

export function asArgs(v: unknown): Args {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof vscode.Uri) ? (v as Args) : {};
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** The vault slug an argument points at: `{slug}`, a tree node holding a checkpoint, touch or plan, or a string. */
export function slugOf(v: unknown): string | undefined {
  if (typeof v === 'string') return str(v);
  const a = asArgs(v);
  if (typeof a.slug === 'string') return a.slug;
  for (const key of ['checkpoint', 'touch', 'plan']) {
    const inner = asArgs(a[key]);
    if (typeof inner.slug === 'string') return inner.slug;
  }
  return undefined;
}

/** A file URI from a Uri, a URI string or a path; else the active editor's file. */
export function uriOf(v: unknown): vscode.Uri | undefined {
  if (v instanceof vscode.Uri) return v;
  if (typeof v === 'string' && v) return /^[a-z][a-z0-9+.-]+:/i.test(v) && !/^[a-z]:[\\/]/i.test(v) ? vscode.Uri.parse(v) : vscode.Uri.file(v);
  const a = asArgs(v);
  if (a.uri !== undefined) return uriOf(a.uri);
  return vscode.window.activeTextEditor?.document.uri;
}

/**
 * Shows a failure without blocking the command (the returned promise of a
 * message resolves only when dismissed). The core's refusals are written for
 * people and shown as they are; anything else is also logged.
 */
export function showFailure(log: Log, what: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof BatonError) {
    log.warn(`${what}: ${message}`);
    void vscode.window.showErrorMessage(message);
  } else {
    log.error(what, err);
    void vscode.window.showErrorMessage(`Baton: ${what} failed: ${message}`, 'Show Log').then((pick) => pick && log.show());
  }
  return message;
}

/** A non-blocking notice. */
export function inform(message: string): void {
  void vscode.window.showInformationMessage(message);
}
