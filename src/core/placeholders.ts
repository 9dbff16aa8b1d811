// What agents write in a "didn't work" list when a template asks for dead ends
// and they have none. Recorded, "none" would teach the next agent nothing and
// read as if something had been ruled out; every writer an agent drives (MCP,
// VS Code's language-model tools) drops these and says so, through
// app/commit.ts's commit recipe (`byAgent`).

const PLACEHOLDER = /^\s*(?:none|none yet|n\/?a|na|-+|—|–|nothing|nothing yet|nil|null|no|not applicable|tbd)\s*[.!]?\s*$/i;

export const isPlaceholder = (item: string): boolean => !item.trim() || PLACEHOLDER.test(item);

/** The real items and the placeholders, each in the order given. */
export function splitPlaceholders(items: readonly string[]): { kept: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const item of items) (isPlaceholder(item) ? dropped : kept).push(item);
  return { kept, dropped };
}

/** The reply's sentence about dropped placeholders, "" when there were none. */
export function placeholderNotice(kept: readonly string[], dropped: readonly string[]): string {
  if (dropped.length === 0) return '';
  const list = dropped.map((d) => JSON.stringify(d)).join(', ');
  return kept.length
    ? `Left out ${dropped.length} placeholder(s) from "failed" (${list}).`
    : `"failed" held only placeholders (${list}), so this checkpoint records NO dead ends. ` +
        'If you did rule an approach out, checkpoint again with it and why; if not, leave "failed" out next time.';
}
