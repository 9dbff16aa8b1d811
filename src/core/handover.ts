// The hand-over: what the next agent or person reads first. The dead ends come
// before anything else an agent might act on, because rediscovering them is
// the cost Baton exists to remove.
import type { Abandoned, Checkpoint, Note } from './model';
import { age } from './time';

export interface HandoverInput {
  project: string;
  latest: Checkpoint | null;
  uncommitted: Note[];
  abandoned: Abandoned[];
}

const bullets = (title: string, items: string[]): string[] => (items.length ? [`${title}:`, ...items.map((i) => `  - ${i}`)] : []);

/** Plain text (also valid markdown), stable for agents to read and for tests to match. */
export function renderHandover(h: HandoverInput, now: number): string {
  const out: string[] = [`# Hand-over — ${h.project}`, ''];
  const cp = h.latest;
  if (cp) {
    const who = cp.handoffTo ? `${cp.agent} → ${cp.handoffTo}` : cp.agent;
    const kind = cp.autoClosed
      ? ' (auto-closed: nobody reviewed it)'
      : cp.extra.capture === 'extractive'
        ? ' (extractive capture before compaction, not a hand-over: the user\'s own words, nothing verified)'
        : '';
    out.push(`Latest checkpoint ${cp.session} by ${who}, ${age(now - cp.ts)} ago${kind}.`);
    if (cp.git.branch || cp.git.commit) out.push(`Git: ${[cp.git.branch, cp.git.commit, cp.git.subject].filter(Boolean).join(' · ')}`);
    out.push('');
    if (cp.task) out.push(`Task: ${cp.task}`);
    if (cp.intent) out.push(`Intent: ${cp.intent}`);
    out.push(...bullets("Didn't work (do not retry without a new reason)", cp.failed));
    out.push(...bullets('Verified', cp.verified));
    out.push(...bullets('Blockers', cp.blockers));
    out.push(...bullets('Decisions', cp.decisions));
    out.push(...bullets('Open questions', cp.questions));
    if (cp.state) out.push('State:', ...cp.state.split('\n').map((l) => (l ? `  ${l}` : '')));
    out.push(...bullets('Files', cp.files));
    if (cp.next) out.push(`Next: ${cp.next}`);
  } else {
    out.push('No checkpoint yet in this project.');
  }
  if (h.uncommitted.length) {
    out.push('', `Uncommitted working notes (${h.uncommitted.length}):`);
    for (const n of h.uncommitted) out.push(`  - [${age(now - n.ts)} ago, ${n.agent}] ${n.text}`);
  }
  if (h.abandoned.length) {
    out.push('', `Abandoned sessions (${h.abandoned.length}), silent past 6h:`);
    for (const a of h.abandoned) out.push(`  - ${a.session} (${a.agent}, ${a.notes} notes, last ${age(now - a.lastActivity)} ago)`);
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

export const hasHandover = (h: HandoverInput): boolean => h.latest !== null || h.uncommitted.length > 0 || h.abandoned.length > 0;
