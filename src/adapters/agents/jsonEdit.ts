// Surgical edits of someone else's JSON or JSONC file with jsonc-parser's
// `modify`/`applyEdits`: only the bytes of Baton's own entries change, so the
// person's comments, key order, indentation and trailing commas stay as they
// were. Every edit re-parses the text, so paths never point at stale offsets.
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type FormattingOptions, type JSONPath, type Node, type ParseError } from 'jsonc-parser';
import { isDeepStrictEqual } from 'util';
import { refused } from '../../core/errors';
import { checkShape } from './jsonShape';

export type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Refuses a file that is not a JSON(C) object rather than overwrite what a person may have half-typed. */
export function readJson(text: string | null, file: string): Json {
  if (text === null || text.trim() === '') return {};
  checkShape(text, file);
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0];
    throw refused(`${file} is not valid JSON (${printParseErrorCode(e.error)} at offset ${e.offset}); fix it by hand first, Baton changed nothing.`);
  }
  if (!isObj(value)) throw refused(`${file} does not hold a JSON object; Baton changed nothing.`);
  return value;
}

/** The file's own indentation and line ends (two spaces and `\n` for a new file). */
export function formatOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)\S/.exec(text);
  if (m && m[1].startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: m ? m[1].length : 2, eol };
}

const unitOf = (f: FormattingOptions): string => (f.insertSpaces ? ' '.repeat(f.tabSize ?? 2) : '\t');

function nodeAt(text: string, at: JSONPath): Node | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (!root) return undefined;
  return at.length === 0 ? root : findNodeAtLocation(root, at);
}

/** The whitespace a node's line starts with, or null when something else comes before it on its line (an inline list). */
function lineIndent(text: string, offset: number): string | null {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const lead = text.slice(start, offset);
  return /^[ \t]*$/.test(lead) ? lead : null;
}

/** `value` as JSON laid out like the file, its continuation lines under `indent`. */
function layout(value: unknown, indent: string, f: FormattingOptions): string {
  return JSON.stringify(value, null, unitOf(f))
    .split('\n')
    .join((f.eol ?? '\n') + indent);
}

/**
 * Adds `key` (or a list element, for `key` -1) after the container's last
 * child, laid out like that child: its own line at its indentation, or inline
 * after it when the list is written on one line. jsonc-parser's `modify`
 * would re-format from the start of the neighbour's line, and so re-lay a
 * person's one-line entry; this touches no byte of theirs.
 */
function insertChild(text: string, container: Node, key: string | -1, value: unknown): string {
  const f = formatOf(text);
  const children = container.children ?? [];
  const label = key === -1 ? '' : `${JSON.stringify(key)}: `;
  if (children.length === 0) {
    // An empty `{}` or `[]`: jsonc-parser lays it out; only that container's own line is touched.
    return applyEdits(text, modify(text, [...pathOf(container), ...(key === -1 ? [-1] : [key])], value, { formattingOptions: f }));
  }
  const last = children[children.length - 1];
  const end = last.offset + last.length;
  const indent = lineIndent(text, last.offset);
  const content = indent === null ? `, ${label}${JSON.stringify(value)}` : `,${f.eol ?? '\n'}${indent}${label}${layout(value, indent, f)}`;
  return text.slice(0, end) + content + text.slice(end);
}

function pathOf(node: Node): JSONPath {
  const out: JSONPath = [];
  let n: Node | undefined = node;
  while (n?.parent) {
    const p: Node = n.parent;
    if (p.type === 'property') {
      out.unshift(p.children![0].value as string);
      n = p.parent;
    } else {
      out.unshift(p.children!.indexOf(n));
      n = p;
    }
  }
  return out;
}

/**
 * The text with `value` at `at`: an existing value replaced, else added to
 * its nearest existing parent (with the missing parents around it). A list
 * element is appended with a last segment of -1. A new file ends in a newline.
 */
export function setAt(text: string | null, at: JSONPath, value: unknown): string {
  const base = text === null || text.trim() === '' ? '' : text;
  const f = formatOf(base);
  if (base === '') {
    let v: unknown = value;
    for (let i = at.length - 1; i >= 0; i--) v = at[i] === -1 ? [v] : { [at[i] as string]: v };
    return layout(v, '', f) + (f.eol ?? '\n');
  }
  const existing = at[at.length - 1] === -1 ? undefined : nodeAt(base, at);
  if (existing) return applyEdits(base, modify(base, at, value, { formattingOptions: f }));
  for (let n = at.length - 1; n >= 0; n--) {
    const parent = nodeAt(base, at.slice(0, n));
    if (!parent) continue;
    let v: unknown = value;
    for (let i = at.length - 1; i > n; i--) v = at[i] === -1 ? [v] : { [at[i] as string]: v };
    const key = at[n];
    return insertChild(base, parent, key === -1 ? -1 : (key as string), v);
  }
  throw refused('Baton could not find where to add its entry; the file is not a JSON object.');
}

/** Removes the value at `at` and its separator, leaving every other byte as it was. */
export function removeAt(text: string, at: JSONPath): string {
  const node = nodeAt(text, at);
  if (!node) return text;
  const target = node.parent?.type === 'property' ? node.parent : node;
  const container = target.parent!;
  const siblings = container.children!;
  const i = siblings.indexOf(target);
  if (siblings.length === 1) return text.slice(0, container.offset + 1) + text.slice(container.offset + container.length - 1);
  if (i === siblings.length - 1) {
    const prev = siblings[i - 1];
    return text.slice(0, prev.offset + prev.length) + text.slice(target.offset + target.length);
  }
  return text.slice(0, target.offset) + text.slice(siblings[i + 1].offset);
}

export function valueAt(text: string, at: JSONPath): unknown {
  let v: unknown = readJson(text, 'the file');
  for (const k of at) {
    if (typeof k === 'number' ? !Array.isArray(v) : !isObj(v)) return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** Removes `at`, then each parent up to `stopAt` (exclusive) that the removal left empty. */
export function removeAndPrune(text: string, at: JSONPath, stopAt: number): string {
  let out = removeAt(text, at);
  for (let n = at.length - 1; n > stopAt; n--) {
    const parent = nodeAt(out, at.slice(0, n));
    if (!parent || (parent.children?.length ?? 0) > 0) break;
    out = removeAt(out, at.slice(0, n));
  }
  return out;
}

/** The value without empty objects and lists: a `"hooks": {}` configures nothing. */
function pruned(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(pruned);
  if (!isObj(v)) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    const p = pruned(x);
    if ((isObj(p) && Object.keys(p).length === 0) || (Array.isArray(p) && p.length === 0)) continue;
    out[k] = p;
  }
  return out;
}

/**
 * Whether two texts configure the same, whatever their layout: equal JSON once
 * the empty containers Baton's removal prunes are set aside. Used to tell
 * whether the file is back to the person's own, so their bytes can return.
 */
export function sameJson(a: string, b: string): boolean {
  return isDeepStrictEqual(pruned(readJson(a, 'a')), pruned(readJson(b, 'b')));
}

/** A map of named entries (`mcpServers`): Baton's entry under `name`, recognised by `isOurs`. */
export interface NamedEntry {
  /** Path of the map, e.g. `['mcpServers']`. */
  map: JSONPath;
  name: string;
  value: Json;
  isOurs(entry: unknown): boolean;
}

export function hasNamed(text: string, e: NamedEntry): boolean {
  return e.isOurs(valueAt(text, [...e.map, e.name]));
}

/** Puts Baton's entry in; refuses an entry of that name that is not Baton's; unchanged when already exact. */
export function upsertNamed(text: string | null, e: NamedEntry, file: string): string {
  const current = text === null ? undefined : valueAt(text, [...e.map, e.name]);
  if (current !== undefined && !e.isOurs(current)) throw refused(`${file}: "${[...e.map, e.name].join('.')}" is not Baton's; Baton changed nothing. Rename it first.`);
  if (text !== null && isDeepStrictEqual(current, e.value)) return text;
  const mapValue = text === null ? undefined : valueAt(text, e.map);
  if (mapValue !== undefined && !isObj(mapValue)) throw refused(`${file}: "${e.map.join('.')}" is not an object; fix it by hand first, Baton changed nothing.`);
  return setAt(text, [...e.map, e.name], e.value);
}

export function removeNamed(text: string, e: NamedEntry): string {
  if (!hasNamed(text, e)) return text;
  return removeAndPrune(text, [...e.map, e.name], 0);
}

/**
 * Hooks by event. `nested` is Claude Code's shape, also Codex's and Gemini's
 * (event → groups `{matcher?, hooks: [handler]}`); `flat` is Cursor's and
 * Copilot's (event → handlers). `commandKey` names the handler's command field.
 */
export interface HookSet {
  shape: 'nested' | 'flat';
  commandKey: string;
  /** Baton's entries, one per event: a group (nested) or a handler (flat). */
  entries: { event: string; entry: Json }[];
  isOurs(command: unknown): boolean;
}

interface Found {
  at: JSONPath;
  /** The group holds only Baton's handlers, so the whole group goes. */
  whole: boolean;
}

/** Every Baton handler in the file, as removable paths, last first (so earlier paths stay valid). */
function findOurs(text: string, set: HookSet): Found[] {
  const hooks = valueAt(text, ['hooks']);
  if (!isObj(hooks)) return [];
  const found: Found[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    list.forEach((item, i) => {
      if (set.shape === 'flat') {
        if (isObj(item) && set.isOurs(item[set.commandKey])) found.push({ at: ['hooks', event, i], whole: true });
        return;
      }
      if (!isObj(item) || !Array.isArray(item.hooks)) return;
      const inner = item.hooks as unknown[];
      const mine = inner.map((h, j) => (isObj(h) && set.isOurs(h[set.commandKey]) ? j : -1)).filter((j) => j >= 0);
      if (mine.length === 0) return;
      if (mine.length === inner.length) found.push({ at: ['hooks', event, i], whole: true });
      else for (const j of mine) found.push({ at: ['hooks', event, i, 'hooks', j], whole: false });
    });
  }
  return found.reverse();
}

export const hasHooks = (text: string, set: HookSet): boolean => findOurs(text, set).length > 0;

/** Takes out every Baton handler, and the groups, event lists and `hooks` object that only they filled. */
export function removeHooks(text: string, set: HookSet): string {
  let out = text;
  for (;;) {
    const [first] = findOurs(out, set);
    if (!first) return out;
    out = removeAndPrune(out, first.at, 0);
  }
}

/** Whether the file holds exactly Baton's entries, once each, where `entries` says. */
function exact(text: string, set: HookSet): boolean {
  const found = findOurs(text, set);
  if (found.length !== set.entries.length || found.some((f) => !f.whole)) return false;
  return set.entries.every(({ event, entry }) => {
    const list = valueAt(text, ['hooks', event]);
    return Array.isArray(list) && list.filter((g) => isDeepStrictEqual(g, entry)).length === 1;
  });
}

/**
 * Baton's hooks in, beside the person's own. Already exact: the very same
 * text (connect twice changes nothing). Otherwise Baton's old entries (another
 * launcher path, an older set of events) go and the current ones are appended.
 */
export function ensureHooks(text: string | null, set: HookSet, file: string): string {
  if (text !== null && exact(text, set)) return text;
  const hooks = text === null ? undefined : valueAt(text, ['hooks']);
  if (hooks !== undefined && !isObj(hooks)) throw refused(`${file}: "hooks" is not an object; fix it by hand first, Baton changed nothing.`);
  let out = text === null ? null : removeHooks(text, set);
  for (const { event, entry } of set.entries) {
    const list = out === null ? undefined : valueAt(out, ['hooks', event]);
    if (list !== undefined && !Array.isArray(list)) throw refused(`${file}: "hooks.${event}" is not a list; fix it by hand first, Baton changed nothing.`);
    out = list === undefined ? setAt(out, ['hooks', event], [entry]) : setAt(out, ['hooks', event, -1], entry);
  }
  return out ?? '';
}

/** Nothing left but `{}` (and keys Baton adds to a file it creates, such as Cursor's `version`). */
export function emptyBut(text: string, keys: string[] = []): boolean {
  return Object.keys(readJson(text, 'the file')).every((k) => keys.includes(k));
}
