// "Before you try": recorded dead ends that match an approach an agent is
// about to take, found by the full-text engine (stemmed: "mock the payment
// gateway" finds "mocking the payment gateway hid the bug"), best first. An
// agent reads the few hits itself, so a hit must share at least two
// significant words with the approach (one, for a one-word approach).
import { usage } from './errors';
import { rootProject, safeScope } from './names';
import type { DeadEnd, IndexPort, TextHit, TextQuery } from './ports';
import { queryWords } from './searchText';

const STOP = new Set(['the', 'a', 'an', 'to', 'of', 'and', 'or', 'in', 'on', 'for', 'with', 'by', 'it', 'is', 'use', 'using', 'try', 'via']);

/** Dead ends a checkpoint is asked for at most; each may hold several items. */
const DEAD_END_HITS = 20;

export function significantWords(text: string): string[] {
  return queryWords(text).words.filter((w) => w.length > 2 && !STOP.has(w));
}

/** The index query for an approach's dead ends: its significant words, in Didn't work only. */
function deadEndQuery(approach: string, project?: string): TextQuery {
  return { words: significantWords(approach), kinds: ['checkpoint'], field: 'failed', project, limit: DEAD_END_HITS };
}

/** Shared words an approach's dead end needs: two (one, for a one-word approach). */
const neededForApproach = (words: number): number => Math.min(2, words);

/**
 * Shared words a dead end of another project needs to be shown beside a task:
 * half the task's words and at least two, since nobody asked for it and a
 * hand-over must not fill with near misses.
 */
const neededForTask = (words: number): number => Math.min(words, Math.max(2, Math.ceil(words / 2)));

/** At most this many dead ends of other projects are shown beside a hand-over. */
const ELSEWHERE_MAX = 3;

const wordsOf = (text: string): Set<string> => new Set(queryWords(text).words);

/**
 * The dead ends of the hits that share enough words, best first: of each
 * checkpoint, the items holding the words the engine matched (all of them
 * when the snippet does not show which), most matched words first.
 */
function deadEndsOfHits(hits: readonly TextHit[], needed: number, itemsOf: (hit: TextHit) => DeadEnd[]): DeadEnd[] {
  const out: DeadEnd[] = [];
  for (const hit of hits) {
    if (hit.matched < needed) continue;
    const marked = new Set(hit.marks.map(([a, b]) => hit.snippet.slice(a, b).toLowerCase()));
    const items = itemsOf(hit)
      .map((d) => {
        const mine = wordsOf(d.text);
        return { d, n: [...marked].filter((w) => mine.has(w)).length };
      })
      .sort((a, b) => b.n - a.n);
    const shown = items.some((i) => i.n > 0) ? items.filter((i) => i.n > 0) : items;
    out.push(...shown.map((i) => i.d));
  }
  return out;
}

/** Recorded dead ends matching an approach an agent is about to try, best first; in `project` (and its worktrees) when given. */
export function deadEndsForApproach(index: IndexPort, approach: string, project?: string): DeadEnd[] {
  const words = significantWords(approach);
  if (words.length === 0) throw usage('Describe the approach in a few words, e.g. "mock the payment gateway".');
  const q = deadEndQuery(approach, project ? rootProject(safeScope(project)) : undefined);
  return deadEndsOfHits(index.search(q), neededForApproach(words.length), (hit) => index.deadEnds([hit.slug]));
}

/** The few dead ends of projects other than `scope`'s that match a task (for a hand-over, labelled as such). */
export function deadEndsElsewhere(index: IndexPort, task: string, scope: string): DeadEnd[] {
  const words = significantWords(task);
  if (words.length === 0) return [];
  const root = rootProject(safeScope(scope));
  const hits = index.search(deadEndQuery(task)).filter((h) => rootProject(h.project) !== root);
  return deadEndsOfHits(hits, neededForTask(words.length), (hit) => index.deadEnds([hit.slug])).slice(0, ELSEWHERE_MAX);
}
