// `baton search QUERY...`: full-text search of the vault, best first.
import { searchHitJson, renderSearchHits } from '../core/searchHits';
import { usage } from '../core/errors';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';
import { usageLine } from './usage';

export async function search(ctx: Context, { values, positionals }: CommandInput<'search'>): Promise<number> {
  const query = positionals.join(' ');
  if (!query.trim()) throw usage(`Search for what? ${usageLine('search')}`);
  const limitRaw = str(values.limit);
  if (limitRaw !== undefined && !/^\d+$/.test(limitRaw.trim())) throw usage(`--limit must be a whole number, got "${limitRaw}".`);
  const hits = await ctx.core().search({
    query,
    // No project unless asked: search is across the vault by default, as `why` is.
    project: str(values.project),
    kind: str(values.kind),
    agent: str(values.agent),
    since: str(values.since),
    limit: limitRaw === undefined ? undefined : Number(limitRaw),
  });
  if (values.json) ctx.json(hits.map(searchHitJson));
  else ctx.io.out(renderSearchHits(query, hits, Math.floor(Date.now() / 1000)));
  return 0;
}
