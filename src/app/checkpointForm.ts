// The checkpoint form: one markdown document a person edits before a checkpoint
// is written, as `git commit` opens a message. It is the body `baton
// checkpoint` reads on stdin (core/checkpointBody's parseBody reads it back, so
// the form and the CLI cannot disagree), every section shown, with what the
// session already knows filled in: the previous Next as Task, the files its
// notes say were edited and git sees changed, the commands run. Each bullet is
// one item: nothing is split on `;`, which a sentence may hold.
import type { Baton } from '../core/baton';
import { SECTIONS, parseBody, renderBody } from '../core/checkpointBody';
import { editedPath, mergeFiles } from '../core/edits';
import { plainLabel } from '../core/lensText';
import { workingNotes } from '../core/lifecycle';
import type { CheckpointFields, GitState, Note } from '../core/model';
import { emptyFields } from '../core/model';

/** Branches whose name says nothing about the task. */
const TRUNKS = /^(main|master|trunk|develop|dev)$/;
/** A form is a review, not a dump: the newest this many commands. */
const MAX_COMMANDS = 20;

export interface FormPrefill {
  fields: Partial<CheckpointFields>;
  /** The scope's open working notes (not `edited:` ones), as the preamble lists them: the commit folds them into State itself. */
  notes: string[];
}

/**
 * The likeliest task: the last checkpoint's next step, else the branch's
 * name made words (`fix/empty-cart` is "empty cart"); "" on a trunk.
 */
export function likelyTask(latestNext: string | undefined, git: GitState | undefined): string {
  if (latestNext) return latestNext;
  const branch = git?.branch ?? '';
  return branch && !TRUNKS.test(branch) ? branch.replace(/^[^/]+\//, '').replace(/[-_]+/g, ' ') : '';
}

/**
 * What a form for `scope` starts with. `commands` are those the person ran
 * (the editor's terminals), oldest first; `git` the folder's state, if any.
 * Edited files come from the open notes, so Files holds what a hook saw
 * even before the commit folds those notes in.
 */
export async function prefillForm(baton: Baton, scope: string, opts: { git?: GitState; commands?: readonly string[] } = {}): Promise<FormPrefill> {
  const [view, history] = await Promise.all([baton.sessions(scope).catch(() => undefined), baton.history(scope).catch(() => [])]);
  const open: Note[] = view?.uncommitted ?? [];
  const edited = open.map((n) => editedPath(n.text)).filter((p): p is string => p !== null);
  const notes = workingNotes(open)
    .filter((n) => editedPath(n.text) === null)
    .map((n) => `(${plainLabel(n.agent, 40)}) ${plainLabel(n.text, 200)}`);
  const commands = [...new Set((opts.commands ?? []).map((c) => c.trim()).filter(Boolean))].slice(-MAX_COMMANDS);
  return {
    fields: {
      task: likelyTask(history[0]?.next, opts.git),
      files: mergeFiles(edited, opts.git?.files ?? []),
      commands,
    },
    notes,
  };
}

export interface FormHeader {
  /** What saving does, e.g. "Commit Checkpoint to kestrel" or "Hand Off kestrel to codex". */
  title: string;
  notes: readonly string[];
}

/**
 * The form's text: a comment saying how it works (text above the first
 * heading is never read as a field), then every section of the contract in
 * its order, filled where the prefill has something; an empty list has one
 * empty bullet to type after.
 */
export function formText(header: FormHeader, fields: Partial<CheckpointFields>): string {
  const all = { ...emptyFields(), ...fields };
  const intro = [
    `<!-- Baton: ${plainLabel(header.title, 200)}.`,
    'Save this file (or click Commit in the editor title) to write the checkpoint; close it without saving to write nothing.',
    'Each bullet is one item; empty sections are left out; nothing above the first heading is written.',
  ];
  if (header.notes.length) {
    intro.push('', 'Open working notes, added to State by the commit (yours, and those of agents quiet for 30 minutes):');
    // Indented: a note can never start a line with `##` and become a section.
    for (const n of header.notes) intro.push(`  - ${n.replace(/--+>/g, '->')}`);
  }
  const parts = [`${intro.join('\n')}\n-->\n`];
  for (const s of SECTIONS) {
    // renderBody of the one field: the same escaping of a `#` line and folding of items the checkpoint file gets.
    const filled = renderBody({ ...emptyFields(), [s.key]: all[s.key] });
    parts.push(filled || `## ${s.heading}\n\n${s.prose ? '' : '- \n'}`);
  }
  return parts.join('\n');
}

/** The fields a saved form holds, read as `baton checkpoint` reads its stdin. */
export function readForm(text: string): Partial<CheckpointFields> {
  return parseBody(text);
}
