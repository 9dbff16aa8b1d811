// What makes a JSON(C) settings file one Baton will not edit, found before any
// parser sees it (issue 29). Two readers of one file must agree on it:
// jsonc-parser's `parse` keeps the last of two equal keys while its
// `findNodeAtLocation` finds the first, so with `"hooks"` twice an edit aimed
// at the block `parse` read landed in the other and disconnect looped for
// ever; and the parsers recurse once per level, so 5,000 nested arrays ended
// in a RangeError stack. Both are refused with a message instead: the depth by
// one linear scan (no recursion), duplicates by a walk of the tree once the
// depth is known to be small.
import { parseTree, type Node } from 'jsonc-parser';
import { refused } from '../../core/errors';

/** Levels of `{`/`[` allowed: agents' settings nest a handful; a parser's stack is the limit this keeps far from. */
export const MAX_DEPTH = 256;

/** The deepest nesting of `text`, strings and comments skipped, in one pass. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth += 1;
      if (depth > max) max = depth;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth = Math.max(0, depth - 1);
    }
  }
  return max;
}

/** The first key an object holds twice, with where it stands (a dotted path), or null. */
export function duplicateKey(text: string): { path: string; key: string } | null {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (!root) return null;
  const stack: { node: Node; path: string }[] = [{ node: root, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node.type === 'object') {
      const seen = new Set<string>();
      for (const prop of node.children ?? []) {
        const key = prop.children?.[0]?.value as string | undefined;
        if (key === undefined) continue;
        if (seen.has(key)) return { path, key };
        seen.add(key);
        const value = prop.children?.[1];
        if (value) stack.push({ node: value, path: path ? `${path}.${key}` : key });
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((child, i) => stack.push({ node: child, path: `${path}[${i}]` }));
    }
  }
  return null;
}

/** Refuses a text Baton's edits could not be exact on (see the top); returns nothing when it is fine. */
export function checkShape(text: string, file: string): void {
  const depth = nestingDepth(text);
  if (depth > MAX_DEPTH) throw refused(`${file} nests ${depth} levels deep, more than the ${MAX_DEPTH} Baton edits; Baton changed nothing. Flatten it by hand first.`);
  const dup = duplicateKey(text);
  if (dup) {
    const where = dup.path ? ` inside "${dup.path}"` : '';
    throw refused(`${file} has the key "${dup.key}" twice${where}: readers disagree on which one counts, so Baton changed nothing. Merge the two into one by hand first.`);
  }
}
