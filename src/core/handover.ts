// The hand-over: what the next agent or person reads first, and the other
// texts agents read (sessions, why, before_you_try, plans). The dead ends come
// before anything else an agent might act on, because rediscovering them is
// the cost Baton exists to remove.
//
// Baton's own lines start at column 0 (or as indented `- ` entries) and say
// facts; everything an agent wrote is quoted under them (quoted.ts): a line of
// checkpoint text never starts a line of its own, whatever it holds.
import type { Abandoned, Checkpoint, Note, Plan, Touch } from './model';
import type { DeadEnd } from './ports';
import { editsByAgent, isEditNote } from './edits';
import { workingNotes } from './lifecycle';
import { QUOTED_INTRO, ident, quote, quoteItem } from './quoted';
import { START_BUDGET_TOKENS } from './requestBudget';
import { renderAlsoWorking, whoseOf, type LiveSession } from './whose';
import { originOf, threadOf, type Thread, type ThreadItem } from './thread';
import { shortMachine } from './origin';
import { age, day } from './time';
import { evidenceLines, shownClaimLines, unjudgedLine, type ClaimCheck } from './evidence';

export interface HandoverInput {
  project: string;
  latest: Checkpoint | null;
  uncommitted: Note[];
  abandoned: Abandoned[];
  /** Dead ends of other projects matching the latest task. */
  elsewhere?: DeadEnd[];
  /**
   * What the project's checkpoints ruled out and decided, carried until settled
   * (thread.ts); without it, the latest checkpoint's own.
   */
  thread?: Thread;
  /** Other machines' sessions still at work in the scope (whose.ts). */
  othersWorking?: LiveSession[];
  /** The latest checkpoint's claims judged against the working tree (evidence.ts), where a door had its folder. */
  evidence?: ClaimCheck[];
}

/** Verified, then what backs each item, in the list's order (a claim the body no longer holds is left out). */
const verifiedLines = (cp: Checkpoint, checks: readonly ClaimCheck[] = []): string[] => {
  const byClaim = new Map(checks.map((c) => [c.claim, c]));
  const ordered = cp.verified.map((v) => byClaim.get(v)).filter((c): c is ClaimCheck => c !== undefined);
  return [...bullets('Verified', cp.verified), ...(ordered.length === cp.verified.length ? evidenceLines(ordered) : [])];
};

/** The headings of the carried lists, Baton's words (facts about the list, not orders). */
export const failedHeading = (n: number): string => `Didn't work (${n}, newest first, by the session that ruled each out):`;
export const decisionsHeading = (n: number): string => `Decisions (${n}, newest first, by the session that made each):`;

/** The full hand-over lists at most this many of each (newest first); `--json` carries every one. */
export const FULL_DEAD_ENDS = 40;
export const FULL_DECISIONS = 20;

const prose = (title: string, text: string): string[] => (text.trim() ? [`${title}:`, ...quote(text)] : []);
const bullets = (title: string, items: string[]): string[] => (items.length ? [title.endsWith(':') ? title : `${title}:`, ...items.flatMap((i) => quoteItem(i))] : []);
/** Each note under its agent, and its machine when the notes come from several (a team's vault: everyone's agent has one name). */
const noteLines = (notes: readonly Note[], now: number): string[] => {
  const several = new Set(notes.map((n) => n.machine).filter(Boolean)).size > 1;
  return notes.flatMap((n) => [
    `  - ${ident(n.agent)}${several && n.machine ? ` (machine ${ident(shortMachine(n.machine))})` : ''}, ${age(now - n.ts)} ago:`,
    ...quote(n.text, '    '),
  ]);
};

/**
 * The latest checkpoint's author as its line names it: agent, hand-off target,
 * and its machine when the thread it heads was written on several.
 */
function latestBy(cp: Checkpoint, thread: Thread): string {
  const machine = originOf(cp).machine;
  const several = new Set([machine, ...thread.deadEnds.map((i) => i.machine), ...thread.decisions.map((i) => i.machine)].filter(Boolean)).size > 1;
  const who = cp.handoffTo ? `${ident(cp.agent)} → ${ident(cp.handoffTo)}` : ident(cp.agent);
  return several && machine ? `${who} (machine ${ident(shortMachine(machine))})` : who;
}
/**
 * Open notes as the hand-over lists them: the hooks' `edited:` notes (one a
 * file, see edits.ts) are no news to read one by one, so each agent's become
 * one "Files edited" line; the count is of the other notes.
 */
function openNotes(header: (count: number) => string, all: readonly Note[], now: number): string[] {
  // Lifecycle events ("stopped", "session ended") are no news to a reader (lifecycle.ts).
  const notes = workingNotes(all);
  const said = notes.filter((n) => !isEditNote(n));
  const out = said.length ? [header(said.length), ...noteLines(said, now)] : [];
  for (const e of editsByAgent(notes)) out.push(`Files edited by ${ident(e.agent)}, not yet checkpointed (${e.files.length}):`, ...quote(e.files.join(', ')));
  return out;
}
const deadEndLines = (d: DeadEnd): string[] => [
  `  - ruled out by ${ident(d.agent)} on ${d.ts > 0 ? day(d.ts) : 'an unknown day'} in ${ident(d.project)} (${ident(d.slug)}):`,
  ...quote(d.text, '    '),
];
const threadOfInput = (h: HandoverInput): Thread => h.thread ?? threadOf(h.latest ? [h.latest] : []);

/**
 * Who recorded a carried item: the agent, the person when the checkpoint
 * names one, and the machine (its id's first 8 characters) only when the
 * list's items come from several, as whose.ts lists sessions.
 */
function whoOf(i: ThreadItem, machines: boolean): string {
  const origin = [i.person && ident(i.person), machines && i.machine && `machine ${ident(i.machine.slice(0, 8))}`].filter(Boolean).join(', ');
  return origin ? `${ident(i.agent)} (${origin})` : ident(i.agent);
}

/**
 * Carried items as lines, grouped under the checkpoint that recorded each (its
 * agent, age and id; "the latest checkpoint" for the one the hand-over is of),
 * each group a label line with its items quoted under it.
 */
function itemLines(items: readonly ThreadItem[], latest: string, now: number): string[][] {
  const machines = new Set(items.map((i) => i.machine).filter(Boolean)).size > 1;
  let group = '';
  return items.map((i) => {
    const label = group === i.session ? [] : [`  - ${whoOf(i, machines)}, ${age(now - i.ts)} ago, ${i.session === latest ? 'the latest checkpoint' : ident(i.session)}:`];
    group = i.session;
    return [...label, ...quoteItem(i.text, '    ')];
  });
}

/** A carried list in full, up to `max` items, with a line counting the rest and where every one is read. */
function carriedLines(heading: string, items: readonly ThreadItem[], o: { latest: string; now: number; max: number; what: string; all: string }): string[] {
  if (!items.length) return [];
  const shown = itemLines(items.slice(0, o.max), o.latest, o.now).flat();
  const rest = items.length - Math.min(items.length, o.max);
  return [heading, ...shown, ...(rest ? [`  (${rest} older ${o.what} not listed here; every one: ${o.all}.)`] : [])];
}

const finish = (out: string[]): string =>
  out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd() + '\n';

/**
 * Plain text (also valid markdown: the quotes are block quotes), stable for
 * agents to read and for tests to match. `all` says where every carried item
 * is read when the lists are cut (default: the CLI's JSON).
 */
export function renderHandover(h: HandoverInput, now: number, o: { all?: string } = {}): string {
  const out: string[] = [`# Hand-over — ${ident(h.project)}`, ''];
  const cp = h.latest;
  const thread = threadOfInput(h);
  const carried = { latest: cp?.session ?? '', now, all: o.all ?? `baton resume ${ident(h.project)} --json` };
  const open = workingNotes(h.uncommitted);
  if (cp || open.length) out.push(QUOTED_INTRO, '');
  if (cp) {
    const who = latestBy(cp, thread);
    const kind = cp.autoClosed
      ? ' (auto-closed: nobody reviewed it)'
      : cp.extra.capture === 'extractive'
        ? cp.extra.capture_source === 'notes'
          ? " (extractive capture before compaction, not a hand-over: the session's working notes, nothing verified)"
          : " (extractive capture before compaction, not a hand-over: the user's own words, nothing verified)"
        : '';
    out.push(`Latest checkpoint ${ident(cp.session)} by ${who}, ${age(now - cp.ts)} ago${kind}.`);
    if (cp.git.branch || cp.git.commit) {
      const at = [cp.git.branch, cp.git.commit].filter(Boolean).map(ident).join(' · ');
      out.push(...(cp.git.subject.trim() ? [`Git: ${at}, commit subject:`, ...quote(cp.git.subject)] : [`Git: ${at}`]));
    }
    out.push('');
    out.push(...prose('Task', cp.task));
    out.push(...prose('Intent', cp.intent));
    out.push(...carriedLines(failedHeading(thread.deadEnds.length), thread.deadEnds, { ...carried, max: FULL_DEAD_ENDS, what: 'dead end(s)' }));
    out.push(...verifiedLines(cp, h.evidence));
    out.push(...bullets('Blockers', cp.blockers));
    out.push(...carriedLines(decisionsHeading(thread.decisions.length), thread.decisions, { ...carried, max: FULL_DECISIONS, what: 'decision(s)' }));
    out.push(...bullets('Open questions', cp.questions));
    out.push(...prose('State', cp.state));
    out.push(...bullets('Files', cp.files));
    out.push(...prose('Next', cp.next));
  } else {
    out.push('No checkpoint yet in this project.');
  }
  if (open.length) out.push('', ...openNotes((n) => `Uncommitted working notes (${n}):`, open, now));
  if (h.abandoned.length) {
    out.push('', `Abandoned sessions (${h.abandoned.length}), silent past 6h:`);
    for (const a of h.abandoned) out.push(`  - ${ident(a.session)} (${ident(a.agent)}${whoseOf(a)}, ${a.notes} notes, last ${age(now - a.lastActivity)} ago)`);
  }
  out.push(...renderAlsoWorking(h.othersWorking, now));
  if (h.elsewhere?.length) {
    out.push('', `Dead ends recorded in other projects that share words with this task (${h.elsewhere.length}; matched by words, they may not apply here):`);
    for (const d of h.elsewhere) out.push(...deadEndLines(d));
  }
  return finish(out);
}

/** At most this share of a session start is kept from the dead ends for the next step, task, blockers, questions and open notes. */
const RESERVED_SHARE = 0.45;

/** What a session start may print of the hand-over: 800 tokens (at 4 characters a token) of the request every session start sends. */
export const START_HANDOVER_CHARS = START_BUDGET_TOKENS * 4;

/**
 * The hand-over a session start prints, within `budget` characters: the
 * whole hand-over when it fits; else the thread's dead ends first, newest
 * first (rediscovering them is the cost Baton exists to remove), then the
 * next step, the task, the blockers and open questions, the open notes and
 * abandoned sessions, then the carried decisions and the rest, as many as fit,
 * and a last line counting what was left out and naming `rest`, where to read it.
 */
export function renderStartHandover(h: HandoverInput, now: number, o: { budget: number; rest: string }): string {
  const full = renderHandover(h, now);
  if (full.length <= o.budget) return full;
  const cp = h.latest;
  const thread = threadOfInput(h);
  const open = workingNotes(h.uncommitted);
  const head = [`# Hand-over — ${ident(h.project)}`, '', QUOTED_INTRO, ''];
  if (cp) head.push(`Latest checkpoint ${ident(cp.session)} by ${latestBy(cp, thread)}, ${age(now - cp.ts)} ago.`, '');
  else head.push('No checkpoint yet in this project.', '');
  type Block = { name: string; lines: string[] } | { name: string; items: ThreadItem[]; heading: string };
  // After the dead ends, what the next session acts on: reserved room, so a long thread cannot push it out.
  const soon: Block[] = cp
    ? [
        { name: 'Next', lines: prose('Next', cp.next) },
        { name: 'Task', lines: prose('Task', cp.task) },
        { name: 'Blockers', lines: bullets('Blockers', cp.blockers) },
        { name: 'Open questions', lines: bullets('Open questions', cp.questions) },
      ]
    : [];
  if (open.length) soon.push({ name: 'working notes', lines: ['', ...openNotes((n) => `Uncommitted working notes (${n}):`, open, now)] });
  if (h.abandoned.length) soon.push({ name: 'abandoned sessions', lines: ['', `Abandoned sessions: ${h.abandoned.length}, silent past 6h.`] });
  const later: Block[] = cp
    ? [
        { name: 'Verified', lines: verifiedLines(cp, h.evidence) },
        { name: 'decision(s)', items: thread.decisions, heading: decisionsHeading(thread.decisions.length) },
        { name: 'Intent', lines: prose('Intent', cp.intent) },
        { name: 'State', lines: prose('State', cp.state) },
        { name: 'Files', lines: bullets('Files', cp.files) },
      ]
    : [];
  const deadEnds = cp ? thread.deadEnds : [];
  const all: Block[] = [{ name: 'dead end(s)', items: deadEnds, heading: failedHeading(deadEnds.length) }, ...soon, ...later];
  const tail = (left: string[]): string => `\n(Left out here: ${left.join(', ')}. The whole hand-over: ${o.rest}.)\n`;
  // Room for the longest last line this can end with: every carried item but one and every block left out.
  const everyName = all.flatMap((b) => ('items' in b ? (b.items.length ? [`${b.items.length} more ${b.name}`] : []) : b.lines.length ? [b.name] : []));
  const room = o.budget - tail(everyName).length;
  const out = [...head];
  const size = (lines: string[]): number => lines.join('\n').length + 1;
  const left: string[] = [];
  const latest = cp?.session ?? '';
  /** Carried items, newest first, as many whole ones as fit in `limit` (at least one when `one`), the rest counted. */
  const fill = (b: Extract<Block, { items: ThreadItem[] }>, limit: number, one: boolean): void => {
    if (!b.items.length) return;
    const groups = itemLines(b.items, latest, now);
    let shown = 0;
    for (const g of groups) {
      const lines = shown ? g : [b.heading, ...g];
      if (!(one && shown === 0) && size([...out, ...lines]) > limit) break;
      out.push(...lines);
      shown += 1;
    }
    if (shown < b.items.length) left.push(`${b.items.length - shown} ${shown ? 'more ' : ''}${b.name}`);
  };
  // The dead ends first (rediscovering them is the cost Baton exists to remove),
  // in the room the next step, task, blockers, questions and open notes leave,
  // which is kept for them up to a share of the budget.
  const reserved = Math.min(
    soon.reduce((n, b) => n + ('lines' in b && b.lines.length ? size(b.lines) : 0), 0),
    Math.floor(room * RESERVED_SHARE),
  );
  fill(all[0] as Extract<Block, { items: ThreadItem[] }>, room - reserved, true);
  for (const b of [...soon, ...later]) {
    if ('items' in b) fill(b, room, false);
    else if (!b.lines.length) continue;
    else if (size([...out, ...b.lines]) <= room) out.push(...b.lines);
    else left.push(b.name);
  }
  return finish(out) + (left.length ? tail(left) : '');
}

export const hasHandover = (h: HandoverInput): boolean => h.latest !== null || workingNotes(h.uncommitted).length > 0 || h.abandoned.length > 0;

export interface SessionsInput {
  project: string;
  checkpoints: Checkpoint[];
  uncommitted: Note[];
  abandoned: Abandoned[];
  othersWorking?: LiveSession[];
}

/**
 * A project's checkpoints, newest first, each with its task (else its next
 * step) quoted under it; then its open notes (listed, or only counted) and its
 * abandoned sessions (with the command that closes one, for the CLI).
 */
export function renderSessions(v: SessionsInput, now: number, o: { listNotes: boolean; closeCommand: boolean }): string {
  const out = [`${ident(v.project)}: ${v.checkpoints.length} checkpoint(s)`];
  if (v.checkpoints.length || (o.listNotes && v.uncommitted.length)) out.push(QUOTED_INTRO);
  for (const c of v.checkpoints) {
    out.push(`  ${ident(c.session)}  ${age(now - c.ts)} ago${c.handoffTo ? `  → ${ident(c.handoffTo)}` : ''}${c.autoClosed ? '  [auto-closed]' : ''}`);
    const said = quote(c.task.trim() ? c.task : c.next, '    ');
    out.push(...(said.length ? said : ['    (no task)']));
  }
  if (v.uncommitted.length) {
    if (o.listNotes) out.push(...openNotes((n) => `Uncommitted notes: ${n}`, v.uncommitted, now));
    else out.push(`Working notes not yet checkpointed: ${v.uncommitted.length}`);
  }
  for (const a of v.abandoned) {
    const close = o.closeCommand ? ` — close with: baton sessions ${ident(v.project)} --close ${ident(a.session)}` : '';
    out.push(`Abandoned: ${ident(a.session)} (${ident(a.agent)}${whoseOf(a)}, ${a.notes} notes, silent ${age(now - a.lastActivity)})${close}`);
  }
  out.push(...renderAlsoWorking(v.othersWorking, now));
  return finish(out);
}

/** Claims judged against a working tree, by the slug of their checkpoint (app/shownClaims.ts): only the checkpoints it could judge. */
export type ClaimsBySlug = ReadonlyMap<string, readonly ClaimCheck[]>;

/** `why`: the checkpoints that touched a file, newest first, each with its task quoted under it and its claims' state (`claims`) after. */
export function renderTouches(file: string, touches: readonly (Touch & { origin?: string })[], now: number, claims?: ClaimsBySlug, unjudged = 0): string {
  if (!touches.length) return `No checkpoint touched ${ident(file)}.\n`;
  const out = [`${touches.length} checkpoint(s) touched ${ident(file)}, newest first.`, QUOTED_INTRO];
  for (const t of touches) {
    const origin = t.origin && t.origin !== 'baton' ? `  (${ident(t.origin)})` : '';
    out.push(`${ident(t.slug)}  ${age(now - t.ts)} ago  ${ident(t.agent)}  [${ident(t.matched)}]${origin}`);
    const said = quote(t.task);
    out.push(...(said.length ? said : ['  (no task)']));
    out.push(...shownClaimLines(claims?.get(t.slug)));
  }
  out.push(...unjudgedLine(unjudged));
  return finish(out);
}

/** `before_you_try`: the recorded dead ends that match an approach, each quoted under who ruled it out; its checkpoint's claims (`claims`) after its first. */
export function renderDeadEnds(approach: string, deadEnds: readonly DeadEnd[], claims?: ClaimsBySlug, unjudged = 0): string {
  if (!deadEnds.length) return `No recorded dead end matches ${ident(approach)}. That does not mean it works: nobody recorded trying it.\n`;
  const out = [`Already ruled out (${deadEnds.length}):`, QUOTED_INTRO];
  const shown = new Set<string>();
  for (const d of deadEnds) {
    out.push(...deadEndLines(d));
    if (!shown.has(d.slug)) out.push(...shownClaimLines(claims?.get(d.slug), '    '));
    shown.add(d.slug);
  }
  out.push(...unjudgedLine(unjudged));
  return finish(out);
}

/** Plans, newest first, each quoted in full under its name. */
export function renderPlans(project: string, plans: readonly Plan[]): string {
  if (!plans.length) return `No plans in ${ident(project)}.\n`;
  const out = [QUOTED_INTRO];
  for (const p of plans) out.push('', `Plan ${ident(p.slug)} (${ident(p.agent)}, ${p.ts > 0 ? day(p.ts) : 'undated'}):`, ...quote(p.text));
  return finish(out);
}

/** Other tools' session notes shown beside the hand-over (basic-memory's), each quoted under its name. */
export function renderOthers(title: string, sessions: readonly Checkpoint[], now: number): string {
  if (!sessions.length) return '';
  const out = ['', `${title} (${sessions.length}):`];
  for (const s of sessions) {
    out.push(`  - ${ident(s.slug)} (${ident(s.agent)}, ${age(now - s.ts)} ago):`);
    const said = quote(s.task.trim() ? s.task : s.next, '    ');
    out.push(...(said.length ? said : ['    (no summary)']));
  }
  return finish(out);
}
