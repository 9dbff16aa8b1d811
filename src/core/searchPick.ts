// What Baton: Search… shows for a hit, and where choosing it opens: pure, so
// it is tested without VS Code. The text is agents': control characters
// removed, `$(` kept from starting an icon (plainLabel).
import type { TextHit } from './ports';
import { plainLabel } from './lensText';
import { stripControls } from './quoted';
import { fieldLabel } from './searchHits';
import { FIELD_HEADINGS } from './searchText';
import { age } from './time';

/** The kinds' icons (codicon names). */
export const KIND_ICONS: Record<TextHit['kind'], string> = { checkpoint: 'history', note: 'note', plan: 'checklist' };

export interface SearchPickText {
  /** Only the kind's icon: see searchCommand.ts for why the label holds no text. */
  icon: string;
  /** Task (or title), project, agent, age. */
  description: string;
  /** The section that matched and the snippet. */
  detail: string;
}

const plain = (text: string, max?: number): string => plainLabel(stripControls(text), max);

export function searchPickText(hit: TextHit, now: number): SearchPickText {
  const title = hit.kind === 'note' ? 'working note' : plain(hit.title, 80) || hit.session;
  const when = hit.ts > 0 ? `${age(now - hit.ts)} ago` : 'undated';
  return {
    icon: KIND_ICONS[hit.kind],
    description: `${title} · ${plain(hit.project, 40)} · ${plain(hit.agent, 30)} · ${when}`,
    // One line already: a list's items are apart in it (adapters/search/snippet.ts).
    detail: `${fieldLabel(hit)}: ${plain(hit.snippet, 200)}`,
  };
}

/**
 * The line (0-based) to open a hit's file at: in a checkpoint, the heading of
 * the section that matched, or the first line under it holding a matched
 * word; in a notes file or a plan, the first line holding one; else 0.
 */
export function hitLine(fileText: string, hit: Pick<TextHit, 'kind' | 'field' | 'snippet' | 'marks'>): number {
  const lines = fileText.split('\n');
  const words = hit.marks.map(([a, b]) => hit.snippet.slice(a, b).toLowerCase()).filter(Boolean);
  const holds = (line: string): boolean => words.some((w) => line.toLowerCase().includes(w));
  let from = 0;
  let to = lines.length;
  if (hit.kind === 'checkpoint') {
    const heading = `## ${FIELD_HEADINGS[hit.field]}`;
    const at = lines.findIndex((l) => l.trim() === heading);
    if (at < 0) return 0;
    const next = lines.findIndex((l, i) => i > at && l.startsWith('## '));
    from = at;
    to = next < 0 ? lines.length : next;
  }
  for (let i = from; i < to; i++) if (holds(lines[i]) && !(hit.kind === 'checkpoint' && i === from)) return i;
  return from;
}
