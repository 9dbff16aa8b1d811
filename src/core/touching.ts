// "Which checkpoints touched this file": agents write paths every which way
// (`./src/x.ts`, `x.ts (rewritten)`, Windows backslashes, absolute paths), so
// both sides are normalised and matched on whole path segments only.

const EDGE = /^[\s`'"]+|[\s`'"]+$/g;

/**
 * A path as written in a checkpoint, reduced to a comparable form. The cut at
 * the first space, tab or `(` comes before the trims, so `` `dir/` (new) ``
 * still loses its backticks and trailing slash. Paths stay case-sensitive.
 */
export function normalizeTouchPath(p: string): string {
  let s = p.replace(EDGE, '');
  const cut = s.search(/[ \t(]/);
  if (cut >= 0) s = s.slice(0, cut);
  s = s.replace(EDGE, '').replace(/\\/g, '/');
  while (s.startsWith('./')) s = s.slice(2);
  while (s.endsWith('/')) s = s.slice(0, -1);
  return s;
}

/**
 * The index key of a path: its last segment. Every pair that `pathsMatch`
 * accepts has the same key, so an index lookup by key never misses a match.
 */
export function touchKey(p: string): string {
  const s = normalizeTouchPath(p);
  return s.slice(s.lastIndexOf('/') + 1);
}

/**
 * Equal, or one ends with `/` + the other (whole segments: `store.go` never
 * matches `vaultstore.go`). A bare file name is the one-segment case of the
 * suffix rule. Empty never matches, so a blank `## Files` line touches nothing.
 */
export function pathsMatch(a: string, b: string): boolean {
  const x = normalizeTouchPath(a);
  const y = normalizeTouchPath(b);
  if (!x || !y) return false;
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}
