// A checkpoint or plan that must change its name on a sync (the same agent
// checkpointed the same scope in the same second on two machines): the
// contract says a checkpoint's `session:` always equals its file name, and a
// `follows` relation names the checkpoint it follows, so both change with the
// name. Done on the text, in the frontmatter only, so every other byte (a
// person's own keys, the body) stays as it was written.

/** The frontmatter's extent: from a leading `---` line to the next `---` line; null when there is none. */
function frontmatterEnd(text: string): number | null {
  if (!/^---\r?\n/.test(text)) return null;
  const m = /\r?\n---[ \t]*(\r?\n|$)/.exec(text.slice(3));
  return m ? 3 + m.index : null;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function inFrontmatter(text: string, edit: (front: string) => string): string {
  const end = frontmatterEnd(text);
  if (end === null) return text;
  return edit(text.slice(0, end)) + text.slice(end);
}

/** Sets `session:` to `id` (adds it when the file has none, so the rule holds for a hand-written file too). */
export function withSession(text: string, id: string): string {
  const end = frontmatterEnd(text);
  if (end === null) return text;
  const front = text.slice(0, end);
  const re = /^session:.*$/m;
  return (re.test(front) ? front.replace(re, `session: ${id}`) : `${front}\nsession: ${id}`) + text.slice(end);
}

/** Points every `[[from]]` link in the frontmatter (the `follows` relation) at `to`. */
export function withFollows(text: string, from: string, to: string): string {
  return inFrontmatter(text, (front) => front.replace(new RegExp(`\\[\\[${escape(from)}\\]\\]`, 'g'), `[[${to}]]`));
}

/** Whether the frontmatter links to `id` (so a rename must repoint it). */
export function linksTo(text: string, id: string): boolean {
  const end = frontmatterEnd(text);
  return end !== null && text.slice(0, end).includes(`[[${id}]]`);
}
