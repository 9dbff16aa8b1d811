// Search as every door asks it: loose input checked once here (words, kind,
// agent, time, limit), each refusal saying what was wrong and what to give.
import { usage } from './errors';
import { safe, safeScope } from './names';
import type { TextQuery } from './ports';
import { queryWords, SEARCH_KINDS, type SearchKind } from './searchText';
import { parseTime } from './time';

const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 200;

export interface SearchRequest {
  query: string;
  project?: string;
  kind?: string;
  agent?: string;
  /** RFC 3339 or unix seconds (as text from a flag, a number from a tool). */
  since?: string | number;
  limit?: number;
}

const isKind = (k: string): k is SearchKind => (SEARCH_KINDS as readonly string[]).includes(k);

/** The index's query for a request; refuses a request with no words, an unknown kind, a bad time or limit. */
export function textQuery(req: SearchRequest): TextQuery {
  const { words } = queryWords(req.query ?? '');
  if (words.length === 0) throw usage('Search for what? Give a few words, e.g. baton search retry policy');
  const q: TextQuery = { words, limit: DEFAULT_SEARCH_LIMIT };
  const kind = req.kind?.trim().toLowerCase();
  if (kind) {
    if (!isKind(kind)) throw usage(`"${req.kind}" is no kind of record: give one of ${SEARCH_KINDS.join(', ')}.`);
    q.kinds = [kind];
  }
  if (req.project?.trim()) q.project = safeScope(req.project);
  if (req.agent?.trim()) q.agent = safe(req.agent);
  if (req.since !== undefined && String(req.since).trim() !== '') q.since = parseTime(String(req.since));
  if (req.limit !== undefined) {
    if (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > MAX_SEARCH_LIMIT) {
      throw usage(`The limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT} (got ${String(req.limit).slice(0, 20)}).`);
    }
    q.limit = req.limit;
  }
  return q;
}
