// The words of the editor hover: which checkpoints touched this file, what
// they ruled out and decided, what comes next. Pure, so it is unit-tested
// without VS Code.
//
// The hover is built as blocks, not as one markdown string, so that the trust
// boundary is in the type: `markup` blocks hold only Baton's own constant
// markup, `text` blocks hold what agents wrote and are rendered escaped (never
// as markdown, so a `[run](command:…)` in a checkpoint stays inert text), and
// `command` blocks are links to one of HOVER_COMMANDS, the only commands the
// rendered MarkdownString enables.
import { claimBlocks } from './claimText';
import { claudeSessionOf } from './claudeSession';
import type { ClaimCheck } from './evidence';
import type { Checkpoint, Touch } from './model';
import { age } from './time';
import { machineOf, whoseAmong } from './whose';

/** The commands a hover may link to; the VS Code layer enables exactly these. */
export const HOVER_COMMANDS = ['baton.openCheckpoint', 'baton.resume', 'baton.showFileCheckpoints', 'baton.resumeInClaudeCode', 'baton.rerunVerification'] as const;
export type HoverCommand = (typeof HOVER_COMMANDS)[number];

export type HoverBlock = { kind: 'markup'; value: string } | { kind: 'text'; value: string } | { kind: 'command'; label: string; command: HoverCommand; args: unknown[] };

export interface HoverEntry {
  touch: Touch;
  /** The full checkpoint, or null when its file could not be read (then only the index's summary shows). */
  checkpoint: Checkpoint | null;
  /** Git shows a commit to this file after the checkpoint. */
  changedSince: boolean;
  /** Its Verified claims judged against the working tree (checkClaims); absent without evidence or a folder to check in. */
  claims?: ClaimCheck[];
  /** Offer Re-run Verification on its stale claims (the scope's latest checkpoint, in a trusted workspace). */
  rerun?: boolean;
}

export interface HoverInput {
  /** Newest first; the first DETAILED get their sections, the rest a line each. */
  entries: HoverEntry[];
  /** All touches of the file (entries may be fewer). */
  total: number;
  now: number;
  /** The file's URI as a string, for "show all". */
  file: string;
  /** This machine's id: the byline says whose a checkpoint is when the file's come from several machines. */
  here?: string;
}

export const DETAILED = 3;
const LISTED = 7;
const ITEMS = 4;

/** Baton's own markup (never agent text). */
export const markup = (value: string): HoverBlock => ({ kind: 'markup', value });
/** Agent text, on one line, rendered escaped. */
export const text = (value: string): HoverBlock => ({ kind: 'text', value: value.replace(/\s+/g, ' ').trim() });

/** The blocks of a hover; empty when no checkpoint touched the file. */
export function buildHover(h: HoverInput): HoverBlock[] {
  if (h.entries.length === 0) return [];
  const out: HoverBlock[] = [markup(`**Baton** · ${h.total === 1 ? '1 checkpoint' : `${h.total} checkpoints`} touched this file\n\n`)];
  const detailedOnes = h.entries.slice(0, DETAILED);
  const whose = whoseAmong(
    detailedOnes.map((e) => machineOf(e.checkpoint?.extra)),
    h.here ?? '',
  );
  detailedOnes.forEach((e, i) => {
    out.push(markup('---\n\n'));
    out.push(...detailed(e, h.now, i === 0, whose(machineOf(e.checkpoint?.extra))));
  });
  const rest = h.entries.slice(DETAILED, DETAILED + LISTED);
  if (rest.length) {
    out.push(markup('---\n\nEarlier:\n'));
    for (const e of rest) {
      out.push(markup('\n- '), text(e.touch.task || e.touch.session), markup(' · '), text(e.touch.agent));
      out.push(markup(` · ${age(h.now - e.touch.ts)} ago · `), openLink(e.touch.slug));
    }
    out.push(markup('\n\n'));
  }
  const shown = Math.min(h.entries.length, DETAILED + LISTED);
  if (h.total > shown) {
    out.push(markup(`---\n\n${h.total - shown} more · `));
    out.push({ kind: 'command', label: 'Show all', command: 'baton.showFileCheckpoints', args: [h.file] });
    out.push(markup('\n\n'));
  }
  return out;
}

function detailed(e: HoverEntry, now: number, newest: boolean, whose: string): HoverBlock[] {
  const t = e.touch;
  const cp = e.checkpoint;
  const out: HoverBlock[] = [markup('**'), text(cp?.task || t.task || cp?.next || t.session), markup('**\n\n')];
  out.push(...byline({ agent: t.agent, handoffTo: cp?.handoffTo, ts: t.ts, project: t.project, autoClosed: cp?.autoClosed, whose }, now, e.changedSince));
  if (cp) {
    out.push(...list("Didn't work", cp.failed));
    out.push(...list('Decided', cp.decisions));
    // The newest is what a person acts on; older ones keep to what was ruled out.
    if (newest) out.push(...list('Blockers', cp.blockers));
    // Only claims with evidence: a Verified list on its own is what the checkpoint says, which its file shows.
    if (e.claims?.length) out.push(...claimBlocks(cp.verified, e.claims, e.rerun ? { slug: t.slug } : null));
    if (newest && cp.next) out.push(markup('**Next:** '), text(cp.next), markup('\n\n'));
  }
  out.push(...checkpointLinks(t.slug, newest ? t.project : null, cp !== null && claudeSessionOf(cp) !== undefined));
  return out;
}

/** Who and when (`agent → handoff · machine 3f9c2a1b · 2d ago · project`), and a warning when the file has moved on since. */
export function byline(
  c: { agent: string; handoffTo?: string; ts: number; project: string; autoClosed?: boolean; whose?: string },
  now: number,
  changedSince: boolean,
): HoverBlock[] {
  const out: HoverBlock[] = [text(c.handoffTo ? `${c.agent} → ${c.handoffTo}` : c.agent)];
  if (c.whose) out.push(markup(' · '), text(c.whose));
  out.push(markup(` · ${age(now - c.ts)} ago · `), text(c.project));
  if (c.autoClosed) out.push(markup(' · *auto-closed: nobody reviewed this session*'));
  out.push(markup('\n\n'));
  if (changedSince) out.push(markup('*This file has commits after this checkpoint: what it says may be out of date.*\n\n'));
  return out;
}

/** Open the checkpoint; resume its project when `project` is given; resume its Claude Code session when it has one. */
export function checkpointLinks(slug: string, project: string | null, claudeSession: boolean): HoverBlock[] {
  const out: HoverBlock[] = [openLink(slug)];
  if (project !== null) out.push(markup(' · '), { kind: 'command', label: `Resume ${project}`, command: 'baton.resume', args: [{ project }] });
  // Only the slug goes into the link: the command reads the session id from the vault and checks it there.
  if (claudeSession) out.push(markup(' · '), { kind: 'command', label: 'Resume in Claude Code', command: 'baton.resumeInClaudeCode', args: [{ slug }] });
  out.push(markup('\n\n'));
  return out;
}

/** A titled list of agent text: the first few items and how many more. */
export function list(title: string, items: readonly string[]): HoverBlock[] {
  if (items.length === 0) return [];
  const out: HoverBlock[] = [markup(`**${title}:**\n`)];
  for (const item of items.slice(0, ITEMS)) out.push(markup('\n- '), text(item));
  if (items.length > ITEMS) out.push(markup(`\n- … ${items.length - ITEMS} more in the checkpoint`));
  out.push(markup('\n\n'));
  return out;
}

const openLink = (slug: string): HoverBlock => ({ kind: 'command', label: 'Open checkpoint', command: 'baton.openCheckpoint', args: [{ slug }] });

/**
 * Escapes text for markdown: every ASCII punctuation character gets a
 * backslash (CommonMark renders `\x` as `x` for all of them), so no `[`, `(`,
 * `<`, `*`, `#`, backtick, `&` or `:` of an agent's text can start a link, an
 * autolink, HTML, an entity or emphasis. Spaces stay spaces so long text wraps
 * (VS Code's own appendText turns every space into `&nbsp;`, which makes a
 * long checkpoint line unbreakable in a hover). Line breaks become spaces.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * Plain-text rendering, for logs, tests and a screen reader's view of the same
 * hover: text blocks verbatim, links as their labels.
 */
export function hoverPlainText(blocks: readonly HoverBlock[]): string {
  return blocks.map((b) => (b.kind === 'command' ? b.label : b.value)).join('');
}
