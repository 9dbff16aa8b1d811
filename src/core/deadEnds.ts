// "Before you try": recorded dead ends that share words with an approach an
// agent is about to take. Plain word overlap, no model: cheap enough to run on
// every question, and an agent reads the few hits itself.
import { rootProject } from './names';
import type { DeadEnd } from './ports';

const STOP = new Set(['the', 'a', 'an', 'to', 'of', 'and', 'or', 'in', 'on', 'for', 'with', 'by', 'it', 'is', 'use', 'using', 'try', 'via']);

export function significantWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length > 2 && !STOP.has(w)))];
}

/** Dead ends sharing at least two significant words with the approach (one, for a one-word approach), best first. */
export function matchDeadEnds(approach: string, deadEnds: DeadEnd[], root = ''): DeadEnd[] {
  const words = significantWords(approach);
  if (words.length === 0) return [];
  return deadEnds
    .filter((d) => !root || rootProject(d.project) === root)
    .map((d) => {
      const theirs = new Set(significantWords(d.text));
      return { d, score: words.filter((w) => theirs.has(w)).length };
    })
    .filter((x) => x.score >= Math.min(2, words.length))
    .sort((a, b) => b.score - a.score || b.d.ts - a.d.ts)
    .map((x) => x.d);
}
