// The thread's SessionStart group in a project's `.claude/settings.json`, put
// in as one contiguous splice and taken out by its exact inverse, so the
// person's file comes back byte for byte: their comments, layout, empty
// `"hooks": {}` and `{ }` included. jsonEdit's insertion appends after a
// container's last child (already a pure splice); an empty container is
// filled inline (`[` + the group + `]`), not re-laid out, so no byte of it is
// lost and no two originals give the same text. Taking it out tries each
// place the splice could have gone and keeps the one whose re-insertion gives
// exactly the file as it is; when the person has edited around it since, the
// group alone is taken out (removeHooks) and their edits stay.
import { findNodeAtLocation, parseTree, type JSONPath, type Node } from 'jsonc-parser';
import { isDeepStrictEqual } from 'util';
import { refused } from '../../core/errors';
import type { HookSet, Json } from './jsonEdit';
import { formatOf, readJson, removeAt, removeHooks, setAt, valueAt } from './jsonEdit';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function nodeAt(text: string, at: JSONPath): Node | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  return root && (at.length === 0 ? root : findNodeAtLocation(root, at));
}

/** The whitespace the line holding `offset` starts with. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** What fills an empty container: `"key": value` (or the element), laid out like the file, continuation lines under the container's line. */
function filling(text: string, node: Node, key: string | -1, value: unknown): string {
  const f = formatOf(text);
  const unit = f.insertSpaces ? ' '.repeat(f.tabSize ?? 2) : '\t';
  const indent = indentAt(text, node.offset);
  const body = JSON.stringify(value, null, unit)
    .split('\n')
    .join((f.eol ?? '\n') + indent);
  return `${key === -1 ? '' : `${JSON.stringify(key)}: `}${body}`;
}

/** The three places the group can go, deepest first: the SessionStart list, the hooks object, the file's root. */
const places = (group: Json): { at: JSONPath; key: string | -1; value: unknown }[] => [
  { at: ['hooks', 'SessionStart'], key: -1, value: group },
  { at: ['hooks'], key: 'SessionStart', value: [group] },
  { at: [], key: 'hooks', value: { SessionStart: [group] } },
];

/** The text with `group` spliced into the deepest place that exists. */
export function insertGroup(text: string, group: Json, file: string): string {
  const v = readJson(text, file);
  if (v.hooks !== undefined && !isObj(v.hooks)) throw refused(`${file}: "hooks" is not an object; fix it by hand first, Baton changed nothing.`);
  if (isObj(v.hooks) && v.hooks.SessionStart !== undefined && !Array.isArray(v.hooks.SessionStart)) {
    throw refused(`${file}: "hooks.SessionStart" is not a list; fix it by hand first, Baton changed nothing.`);
  }
  for (const p of places(group)) {
    const node = nodeAt(text, p.at);
    if (!node) continue;
    if (node.children?.length) return setAt(text, [...p.at, p.key], p.value);
    return text.slice(0, node.offset + 1) + filling(text, node, p.key, p.value) + text.slice(node.offset + 1);
  }
  throw refused(`${file} does not hold a JSON object; Baton changed nothing.`);
}

/** Each text the file could have been before `insertGroup` put the group (found at `list[index]`) in. */
function candidates(text: string, group: Json, index: number): string[] {
  const out: string[] = [];
  for (const p of places(group)) {
    const node = nodeAt(text, p.at);
    if (!node) continue;
    const key = p.key === -1 ? index : p.key;
    const children = node.children?.length ?? 0;
    if (children > 1) out.push(removeAt(text, [...p.at, key]));
    const fill = filling(text, node, p.key, p.value);
    if (children === 1 && text.startsWith(fill, node.offset + 1)) out.push(text.slice(0, node.offset + 1) + text.slice(node.offset + 1 + fill.length));
    // Only the sole child's removal can have made the level above empty.
    if (children > 1) break;
  }
  return out;
}

/** Whether the file holds `group` exactly, once, and no other group of the set. */
export function hasExactGroup(text: string, set: HookSet, group: Json): boolean {
  const list = valueAt(text, ['hooks', 'SessionStart']);
  if (!Array.isArray(list)) return false;
  const ours = list.filter((g) => isObj(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isObj(h) && set.isOurs(h[set.commandKey])));
  return ours.length === 1 && isDeepStrictEqual(ours[0], group);
}

/** The file without the thread's group: exactly as before when it can tell, else with only the group taken out. */
export function removeGroup(text: string, set: HookSet, file: string): string {
  readJson(text, file);
  const list = valueAt(text, ['hooks', 'SessionStart']);
  if (!Array.isArray(list)) return text;
  const mine = list
    .map((g, i) => (isObj(g) && Array.isArray(g.hooks) && g.hooks.length > 0 && g.hooks.every((h) => isObj(h) && set.isOurs(h[set.commandKey])) ? i : -1))
    .filter((i) => i >= 0);
  if (mine.length === 1) {
    const group = list[mine[0]] as Json;
    for (const c of candidates(text, group, mine[0])) if (insertGroup(c, group, file) === text) return c;
  }
  return removeHooks(text, set);
}
