// The words of agent blame in the editor: the faded text after the current
// line (`claude · cart totals · 2d ago`), the text beside a block in the
// whole-file view, the status bar's, and the hover of an attributed line.
// Pure, so they are unit-tested without VS Code. Decoration and status bar
// text is plain (no markdown is rendered there), but the status bar reads
// `$(name)` as an icon, so agent text is kept from forming one.
import { claimBlocks } from './claimText';
import { claudeSessionOf } from './claudeSession';
import type { ClaimCheck } from './evidence';
import { byline, checkpointLinks, list, markup, text, type HoverBlock } from './hoverText';
import type { Checkpoint } from './model';
import { stripControls } from './quoted';
import { age } from './time';

const TASK_CHARS = 50;
const GUTTER_CHARS = 28;

/** One line of agent text, controls removed, cut on a character boundary. */
export function oneLine(text: string, max: number): string {
  const flat = stripControls(text).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : flat;
}

const taskOf = (cp: Checkpoint): string => cp.task || cp.next || cp.session;

/** After the end of the current line: `claude · cart totals · 2d ago`. */
export function annotationText(cp: Checkpoint, now: number): string {
  return `${oneLine(cp.agent, 30)} · ${oneLine(taskOf(cp), TASK_CHARS)} · ${age(now - cp.ts)} ago`;
}

/** Beside the first line of a block in the whole-file view, padded so every block lines up. */
export function gutterText(cp: Checkpoint): string {
  const text = oneLine(`${cp.agent} · ${taskOf(cp)}`, GUTTER_CHARS);
  return text + '\u00a0'.repeat(Math.max(0, GUTTER_CHARS - Array.from(text).length));
}

/** The status bar's: the session of the current line; `$(` would start an icon, so it never survives. */
export function statusText(cp: Checkpoint): string {
  return `$(hubot) ${oneLine(`${cp.agent} · ${taskOf(cp)}`, 40).replace(/\$\(/g, '$\u200b(')}`;
}

export interface LineHoverInput {
  checkpoint: Checkpoint;
  start: number;
  end: number;
  now: number;
  /** Git shows a commit to this file after the checkpoint. */
  changedSince: boolean;
  /** Whose the session was, when the file's sessions come from several machines (whose.ts); else "". */
  whose?: string;
  /** Its Verified claims judged against the working tree; absent without evidence. */
  claims?: ClaimCheck[];
  /** Offer Re-run Verification on its stale claims (the scope's latest checkpoint, in a trusted workspace). */
  rerun?: boolean;
}

/** The hover of a line some session wrote: that checkpoint, its dead ends and decisions, links to open or resume it. */
export function buildLineHover(h: LineHoverInput): HoverBlock[] {
  const cp = h.checkpoint;
  const lines = h.start === h.end ? `line ${h.start}` : `lines ${h.start}–${h.end}`;
  const out: HoverBlock[] = [markup(`**Baton** · ${lines} written in this session\n\n---\n\n`)];
  out.push(markup('**'), text(taskOf(cp)), markup('**\n\n'));
  out.push(...byline({ ...cp, whose: h.whose }, h.now, h.changedSince));
  out.push(...list("Didn't work", cp.failed), ...list('Decided', cp.decisions));
  out.push(...(h.claims?.length ? claimBlocks(cp.verified, h.claims, h.rerun ? { slug: cp.slug } : null) : list('Verified', cp.verified)));
  if (cp.next) out.push(markup('**Next:** '), text(cp.next), markup('\n\n'));
  out.push(...checkpointLinks(cp.slug, cp.project, claudeSessionOf(cp) !== undefined));
  return out;
}
