// How search hits are shown: the text every door prints (CLI, MCP, the
// language-model tool) and the public JSON shape (CLI --json, MCP structured
// content). The snippet is agents' text: quoted in the text, kept exact in
// JSON, matched words marked as **word** in both.
import type { TextHit } from './ports';
import { ident, QUOTED_INTRO, quote } from './quoted';
import { FIELD_HEADINGS } from './searchText';
import { age } from './time';

export interface SearchHitJson {
  kind: TextHit['kind'];
  project: string;
  agent: string;
  ts: number;
  session: string;
  slug: string;
  title: string;
  /** The checkpoint section that matched (task, intent, state, decisions, failed, …); `text` for a note or a plan. */
  field: string;
  snippet: string;
  score: number;
}

/** The snippet with each matched word between `open` and `close`. */
export function markedSnippet(hit: Pick<TextHit, 'snippet' | 'marks'>, open = '**', close = '**'): string {
  let out = '';
  let at = 0;
  for (const [a, b] of hit.marks) {
    out += hit.snippet.slice(at, a) + open + hit.snippet.slice(a, b) + close;
    at = b;
  }
  return out + hit.snippet.slice(at);
}

/** Where the hit matched, as a person reads it: a section heading, or "note" / "plan". */
export const fieldLabel = (hit: Pick<TextHit, 'kind' | 'field'>): string => (hit.kind === 'checkpoint' ? FIELD_HEADINGS[hit.field] : hit.kind);

export function searchHitJson(hit: TextHit): SearchHitJson {
  return {
    kind: hit.kind,
    project: hit.project,
    agent: hit.agent,
    ts: hit.ts,
    session: hit.session,
    slug: hit.slug,
    title: hit.title,
    field: hit.kind === 'checkpoint' ? hit.field : 'text',
    snippet: markedSnippet(hit),
    score: hit.score,
  };
}

/** The hits best first, each on a line of Baton's with its snippet quoted under it. */
export function renderSearchHits(query: string, hits: readonly TextHit[], now: number): string {
  if (!hits.length) return `Nothing in the vault matches ${ident(query)}.\n`;
  const out = [`${hits.length} match(es) for ${ident(query)}, best first.`, QUOTED_INTRO];
  for (const h of hits) {
    const when = h.ts > 0 ? `${age(now - h.ts)} ago` : 'undated';
    out.push('', `${h.kind} ${ident(h.slug)}  ${ident(h.project)}  ${ident(h.agent)}  ${when}  [${fieldLabel(h)}]`);
    if (h.kind !== 'note' && h.title) out.push(...quote(h.title));
    out.push(...quote(markedSnippet(h)));
  }
  return out.join('\n') + '\n';
}
