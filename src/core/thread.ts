// The thread of a project: what its checkpoints ruled out ("Didn't work") and
// decided, carried from one checkpoint to the next. A person's short hand-off
// names no dead end, and the dead ends earlier sessions paid for must not
// vanish with it: an item stays in the hand-over until a later checkpoint
// settles it, not merely until a newer checkpoint forgets to repeat it.
//
// Pure: it reads the checkpoints the hand-over already read (a scope's history,
// newest first) and writes nothing. Its rules are stated once here and in
// /work/notes/doc-handover.md (for docs/vault-format.md):
//
// - Two items are the same when their texts are equal after Unicode NFC, runs
//   of whitespace made one space, ends trimmed and case folded: it is listed
//   once, under the checkpoint that recorded it first: the session that ruled
//   it out, not one that copied it forward (an agent restating the hand-over,
//   a capture carrying the previous checkpoint's lists over).
// - A later checkpoint settles an earlier dead end when it lists the same item
//   under Verified or Decisions (it works after all, or was chosen), and an
//   earlier decision when it lists the same item under Didn't work.
// - A later checkpoint settles either explicitly with an item `solved: TEXT`
//   or `dropped: TEXT` under Verified or Decisions (`baton checkpoint
//   --decided "dropped: TEXT"`, the MCP checkpoint's decisions, or the
//   editor's Decisions step). TEXT names an item by its whole text or by its
//   approach, the part before its first `:`, `;`, `(`, ` — `, ` -- ` or ` - `
//   (dead ends are written "approach: why it failed"), and may add its own
//   reason after one of those. Such an item is an act on the thread, not a decision: it is
//   not carried itself. Logos reads it as a plain bullet: the format is
//   unchanged.
// - Deleting the item from its checkpoint file removes it too: the vault is the record.
import type { Checkpoint } from './model';

/** A dead end or decision as the thread carries it: its text and the checkpoint that recorded it first. */
export interface ThreadItem {
  text: string;
  session: string;
  agent: string;
  /** The person and the machine the checkpoint names (originOf), '' when it names none. */
  person: string;
  machine: string;
  ts: number;
  slug: string;
  /** How many checkpoints recorded it (the same item, see `sameItem`). */
  times: number;
}

/** An item a later checkpoint settled, and which one did (for --json and the MCP structured reply). */
export interface SettledItem extends ThreadItem {
  settledBy: string;
  settledTs: number;
}

export interface Thread {
  /** Newest first: by the place in history of the checkpoint that recorded each first, then in its own order. */
  deadEnds: ThreadItem[];
  decisions: ThreadItem[];
  /** Newest settled first. */
  settled: SettledItem[];
}

export const emptyThread = (): Thread => ({ deadEnds: [], decisions: [], settled: [] });

/** The dedup key: NFC, whitespace runs as one space, trimmed, case folded. */
export const itemKey = (text: string): string => text.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();

// The separators after which a dead end says why it failed ("approach: why",
// "approach — why", "approach (why)").
const APPROACH_END = /[:;]|\s+(?:—|--|-)\s+|\s*\(/u;
const approachOf = (key: string): string => {
  const m = APPROACH_END.exec(key);
  return m && m.index > 0 ? key.slice(0, m.index).trim() : key;
};
const MARKER = /^\s*(?:solved|dropped)\s*:\s*/iu;

/** The text a `solved:`/`dropped:` item names, or undefined when it is no marker. */
export function settleMarker(item: string): string | undefined {
  const m = MARKER.exec(item);
  if (!m) return undefined;
  const named = item.slice(m[0].length);
  return itemKey(named) ? named : undefined;
}

/** Whether a marker's text names the item: by its whole text or its approach, the marker's own reason after it allowed. */
function names(marker: string, item: string): boolean {
  const m = itemKey(marker);
  const i = itemKey(item);
  const mine = new Set([i, approachOf(i)]);
  return mine.has(m) || mine.has(approachOf(m));
}

type Origin = Pick<ThreadItem, 'person' | 'machine'>;

const trimmed = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * The person and machine a checkpoint names, when it names them: Baton's
 * `machine` key (the random id of the vault clone it was written on) and a
 * `person` key; "" for a checkpoint written before either existed. A person's
 * own checkpoint goes under their name as its agent, so the agent says who.
 */
export const originOf = (cp: Checkpoint): Origin => ({ person: trimmed(cp.extra.person), machine: trimmed(cp.extra.machine) });

interface Carried {
  item: ThreadItem;
  /** Where it was written: the checkpoint's place in the history (higher is newer) and the item's place in its list. */
  order: [number, number];
}

/** The thread of a scope's history (newest first, as `Baton.history` returns it). */
export function threadOf(history: readonly Checkpoint[]): Thread {
  const deadEnds = new Map<string, Carried>();
  const decisions = new Map<string, Carried>();
  const settled: SettledItem[] = [];
  const oldestFirst = [...history].reverse();
  oldestFirst.forEach((cp, at) => {
    const markers = [...cp.verified, ...cp.decisions].map(settleMarker).filter((m): m is string => m !== undefined);
    const settle = (carried: Map<string, Carried>, restated: readonly string[]): void => {
      // Restated items are looked up; only a checkpoint with markers (rare) walks what is carried.
      const keys = new Set(restated.map(itemKey).filter((k) => carried.has(k)));
      if (markers.length) for (const [key, c] of carried) if (markers.some((m) => names(m, c.item.text))) keys.add(key);
      for (const key of keys) {
        const c = carried.get(key);
        if (!c) continue;
        carried.delete(key);
        settled.push({ ...c.item, settledBy: cp.session, settledTs: cp.ts });
      }
    };
    // Only what earlier checkpoints recorded is settled: a checkpoint's own items stand.
    settle(deadEnds, [...cp.verified, ...cp.decisions]);
    settle(decisions, cp.failed);
    const origin = originOf(cp);
    const carry = (carried: Map<string, Carried>, items: readonly string[]): void =>
      items.forEach((text, i) => {
        const key = itemKey(text);
        if (!key) return;
        // Restated later (an agent copying the hand-over forward, a capture carrying it over), it stays the first session's.
        const first = carried.get(key);
        if (first) first.item.times += 1;
        else carried.set(key, { item: { text, session: cp.session, agent: cp.agent, ...origin, ts: cp.ts, slug: cp.slug, times: 1 }, order: [at, i] });
      });
    carry(deadEnds, cp.failed);
    carry(
      decisions,
      cp.decisions.filter((d) => settleMarker(d) === undefined),
    );
  });
  const newest = (m: Map<string, Carried>): ThreadItem[] => [...m.values()].sort((a, b) => b.order[0] - a.order[0] || a.order[1] - b.order[1]).map((c) => c.item);
  return { deadEnds: newest(deadEnds), decisions: newest(decisions), settled: settled.reverse() };
}
