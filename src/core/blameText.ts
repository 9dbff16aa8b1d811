// The words of agent blame for a terminal and for agents: which session wrote
// which lines, and for a line asked about, what that session was doing, ruled
// out and decided. Checkpoint text is quoted (core/quoted.ts), never structure.
import type { Checkpoint } from './model';
import { ident, quote, quoteItem, QUOTED_INTRO, stripControls } from './quoted';
import { age } from './time';
import { shownClaimLines, type ClaimCheck } from './evidence';

export interface BlameRange {
  start: number;
  end: number;
  commit: string;
  session: string;
  project: string;
  agent: string;
  task: string;
  slug: string;
  ts: number;
}

const span = (r: { start: number; end: number }): string => (r.start === r.end ? `line ${r.start}` : `lines ${r.start}-${r.end}`);

/**
 * `baton blame FILE`: one entry per range, the task quoted under it, and under a
 * session's first range its claims' state (`claims`, by slug); `nothing` says
 * why there are none.
 */
export function renderBlame(
  b: { file: string; project: string | null; lines: readonly BlameRange[]; nothing?: string },
  now: number,
  claims?: ReadonlyMap<string, readonly ClaimCheck[]>,
): string {
  if (b.nothing) return `${stripControls(b.nothing)}\n`;
  if (b.lines.length === 0) return `No line of ${ident(b.file)} was written in a checkpointed session${b.project ? ` of ${ident(b.project)}` : ''}.\n`;
  const sessions = new Set(b.lines.map((l) => l.slug)).size;
  const out = [`${ident(b.file)}: ${b.lines.length} range(s) from ${sessions} session(s); other lines are nobody's.`, QUOTED_INTRO];
  const shown = new Set<string>();
  for (const l of b.lines) {
    out.push(`${span(l)}  ${ident(l.agent)}  ${age(now - l.ts)} ago  ${ident(l.slug)}  commit ${ident(l.commit.slice(0, 12))}`);
    const said = quote(l.task);
    out.push(...(said.length ? said : ['  (no task)']));
    if (!shown.has(l.slug)) out.push(...shownClaimLines(claims?.get(l.slug)));
    shown.add(l.slug);
  }
  return `${out.join('\n')}\n`;
}

/** `why` with lines: the session that wrote them, its task, dead ends, decisions and next step. */
export function renderLineWhy(
  file: string,
  asked: { start: number; end: number },
  found: readonly { range: BlameRange; checkpoint: Checkpoint | null }[],
  now: number,
  nothing?: string,
): string {
  const where = `${ident(file)} ${span(asked)}`;
  if (nothing) return `${stripControls(nothing)}\n`;
  if (found.length === 0) return `No checkpointed session wrote ${where}: those lines predate every session, are not committed, or no checkpoint covers their commit yet.\n`;
  const sessions = found.length === 1 ? '1 session' : `${found.length} sessions`;
  const rest = asked.start === asked.end ? '' : "; lines of it not listed below are nobody's";
  const out = [`${where}: written in ${sessions}${rest}.`, QUOTED_INTRO];
  for (const { range, checkpoint: cp } of found) {
    out.push(
      '',
      `${span(range)}: ${ident(range.agent)}${cp?.handoffTo ? ` -> ${ident(cp.handoffTo)}` : ''}, ${age(now - range.ts)} ago, ${ident(range.slug)}, commit ${ident(range.commit.slice(0, 12))}`,
    );
    out.push('Task:', ...(quote(range.task).length ? quote(range.task) : ['  (none)']));
    if (!cp) continue;
    section(out, "Didn't work (ruled out):", cp.failed);
    section(out, 'Decided:', cp.decisions);
    if (cp.next) out.push('Next:', ...quote(cp.next));
  }
  return `${out.join('\n')}\n`;
}

function section(out: string[], title: string, items: readonly string[]): void {
  if (items.length === 0) return;
  out.push(title);
  for (const item of items) out.push(...quoteItem(item));
}
