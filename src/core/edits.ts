// Files an agent's host saw it edit, recorded by the hooks as working notes of
// one recognisable shape, `edited: <repo-relative path>`. A note is what the
// vault already keeps per session (uncommitted.md, the vault-format contract),
// so the record survives a deleted `.baton/` and a Logos reading the same vault
// sees a plain note. Baton folds these notes into the checkpoint's `## Files`
// (not into State) and collapses them into one line in the hand-over.
import { isLifecycleNote } from './lifecycle';
import type { Note } from './model';
import { stripControls } from './quoted';
import { normalizeTouchPath } from './touching';

export const EDITED_PREFIX = 'edited: ';
const EDITED = /^edited: (\S.*)$/;

/** The note text that records one edited file. */
export const editNote = (path: string): string => `${EDITED_PREFIX}${path}`;

/** The path an `edited:` note records, or null for any other note. */
export function editedPath(text: string): string | null {
  const m = EDITED.exec(text);
  return m ? m[1].trim() : null;
}

export const isEditNote = (n: { text: string }): boolean => editedPath(n.text) !== null;

/**
 * A path from a host's payload made fit for a note: control characters
 * (escape sequences, bidi controls, tag characters) removed, line breaks and
 * tabs made spaces, `\` made `/`. "" when nothing is left. Secrets are masked
 * later, by the note writer, like any note.
 */
export function cleanPath(raw: string): string {
  return stripControls(raw)
    .replace(/[\s\u0085]+/g, ' ')
    .replace(/\\/g, '/')
    .trim();
}

/** Edited paths, once each (compared as the touch rule compares them), in the order first seen. */
export function uniquePaths(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of paths) {
    const key = normalizeTouchPath(p);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

/**
 * Folded notes split into the edited paths (once each) and the working notes
 * for State; lifecycle events (lifecycle.ts) go to neither: folding takes them
 * out of the notes file and writes them nowhere.
 */
export function splitEdits(notes: readonly Note[]): { edits: string[]; rest: Note[] } {
  const edits: string[] = [];
  const rest: Note[] = [];
  for (const n of notes) {
    if (isLifecycleNote(n)) continue;
    const p = editedPath(n.text);
    if (p === null) rest.push(n);
    else edits.push(p);
  }
  return { edits: uniquePaths(edits), rest };
}

/**
 * The checkpoint's Files: what the agent named, as it wrote it, then each
 * edited path no named entry already is ("src/a.ts (rewritten)" and an edit of
 * src/a.ts are one file).
 */
export function mergeFiles(named: readonly string[], edited: readonly string[]): string[] {
  const have = new Set(named.map(normalizeTouchPath).filter(Boolean));
  const out = [...named];
  for (const p of uniquePaths(edited)) {
    const key = normalizeTouchPath(p);
    if (have.has(key)) continue;
    have.add(key);
    out.push(p);
  }
  return out;
}

/** Per agent, the files its open notes say it edited, once each, agents in the order first seen. */
export function editsByAgent(notes: readonly Note[]): { agent: string; files: string[] }[] {
  const by = new Map<string, string[]>();
  for (const n of notes) {
    const p = editedPath(n.text);
    if (p === null) continue;
    by.set(n.agent, [...(by.get(n.agent) ?? []), p]);
  }
  return [...by].map(([agent, files]) => ({ agent, files: uniquePaths(files) }));
}
