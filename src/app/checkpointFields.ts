// Checkpoint fields from what a door was handed: an MCP tool's arguments, a
// language-model tool's input, a command's argument object or quick-input
// answers. One set of names, the model's (`decisions`, `blockers`, …); a door
// whose own input names them otherwise (the CLI's `--decided`) renames them
// while parsing. Nothing here trusts a shape: input from a model, a hover link
// or a keybinding may carry anything.
import type { CheckpointFields } from '../core/model';

export const TEXT_FIELDS = ['task', 'intent', 'state', 'next'] as const;
export const LIST_FIELDS = ['decisions', 'failed', 'verified', 'blockers', 'commands', 'questions', 'files'] as const;

export type LooseFields = { [K in keyof CheckpointFields]?: unknown };

export interface FieldOptions {
  /**
   * A list may also come as one string of items separated by `;` (a person
   * typing several items into one input box); the text and the items are then
   * trimmed and empty items dropped. Without it a list must be an array, and
   * what a model wrote is kept as written (placeholders are judged on it).
   */
  typed?: boolean;
}

/** Every field of the model, "" or [] where the input had nothing usable. */
export function checkpointFields(input: LooseFields, opts: FieldOptions = {}): CheckpointFields {
  const text = (v: unknown): string => (typeof v !== 'string' ? '' : opts.typed ? v.trim() : v);
  const list = (v: unknown): string[] => {
    const raw = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : opts.typed && typeof v === 'string' ? v.split(';') : [];
    return opts.typed ? raw.map((s) => s.trim()).filter(Boolean) : raw;
  };
  const out = {} as CheckpointFields;
  for (const k of TEXT_FIELDS) out[k] = text(input[k]);
  for (const k of LIST_FIELDS) out[k] = list(input[k]);
  return out;
}
