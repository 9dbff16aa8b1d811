// The fast reader of checkpoint frontmatter. The index reads its records
// through it (also in its worker threads, index/indexWorker.ts), and
// `parseCheckpoint` its frontmatter.
//
// It reads the frontmatter Baton and Logos write by hand, line by line, and
// gives up (returns null) on anything it does not recognise with certainty:
// a line outside the shape, a duplicate key, a character YAML might refuse, a
// value whose YAML type could be other than a string. The caller then uses the
// real parser (js-yaml, in checkpointFile.ts), so every reader sees exactly
// the same thing; `test/unit/indexRecord.test.ts` and `parseCheckpoint.test.ts`
// check the two agree on the benchmark's generated corpus, on hand-mangled and
// on random files. The body is read by the core's own reader (`bodyFacts`).
import { bodyFacts } from '../../core/checkpointBody';
import type { SearchText } from '../../core/searchText';
import { agentOfId } from '../../core/names';
import { DOUBLE, KEY_LINE, RELATION_LINE, UNSAFE, corePlain, isPlain, isScalar, readings, scalar, timeOf } from './fastScalars';

/** What the index keeps of one checkpoint. */
export interface IndexRecord {
  agent: string;
  /** Whose it is (core/thread.ts originOf): its `machine` and `person` keys, trimmed, "" when absent or not strings. */
  machine: string;
  person: string;
  /** `checkpointed`, else `first_seen`, else 0. */
  ts: number;
  /** The task, else the next step: what a list shows for the checkpoint. */
  task: string;
  /** Nothing in it but Commands and Files: skipped by history and by `why`. */
  empty: boolean;
  /** `## Files` then git's `touched`, as written (normalised later). */
  paths: string[];
  /** `## Didn't work`. */
  failed: string[];
  /** What full-text search indexes (core/searchText.ts); null when the reader was not asked for it. */
  search: SearchText | null;
}

/** A frontmatter as the real parser's two readings give it: YAML's core schema, and strings only. */
export interface FastFrontmatter {
  typed: Record<string, unknown>;
  /** The same keys with every scalar as written; a nested block's is its typed reading (FrontVisitor.tree says why). */
  raw: Record<string, unknown>;
  /** Where the body starts in the text. */
  bodyStart: number;
}

// ---- the shape ----

/**
 * The frontmatter's text and where the body starts, when the file opens with
 * `---\n`, closes it with a `---` line, and holds only characters this
 * reader is sure of; else null.
 */
function splitFront(text: string): { yaml: string; bodyStart: number } | null {
  if (!text.startsWith('---\n') || text.includes('\r')) return null;
  let close = text.indexOf('\n---\n', 3);
  let bodyStart = close + 5;
  if (close < 0) {
    if (!text.endsWith('\n---')) return null;
    close = text.length - 4;
    bodyStart = text.length;
  }
  if (close < 4) return null;
  const yaml = text.slice(4, close);
  return UNSAFE.test(yaml) ? null : { yaml, bodyStart };
}

/** What a reading does with each line `scanFront` accepted; `false` gives up. */
interface FrontVisitor {
  /** `key: raw`, raw a scalar `isScalar` accepted. */
  value(key: string, raw: string): boolean;
  /** `key:` alone: a list follows. */
  list(key: string): void;
  /** `  - raw` of the list `key`, raw a scalar `isScalar` accepted. */
  item(key: string, raw: string): boolean;
  /** A relation line Baton writes, under `relations:`. */
  relation(pred: string, obj: string): void;
  /**
   * `key:` followed by an indented block mapping (Baton's `evidence`, as js-yaml
   * dumps it), its typed reading. Its raw reading is never asked for: a
   * modelled key is read as written only when it is a string or a list, and a
   * nested block is a mapping, which both readers take as no text and no list.
   */
  tree(key: string, typed: unknown): void;
}

/** A mapping key this reader is sure every YAML reader takes as this string: plain, path-like, no type of its own. */
const KEY = /^[A-Za-z0-9_./@+~-]+$/;
const keys = new Map<string, boolean>();
/** Keys repeat (every claim has the same few): each decided once. */
function isKey(k: string): boolean {
  let ok = keys.get(k);
  if (ok === undefined) {
    ok = KEY.test(k) && isPlain(k) && k !== '__proto__' && k !== '<<' && corePlain(k) === k;
    if (keys.size < 256) keys.set(k, ok);
  }
  return ok;
}

/** Where line's indentation ends, counting spaces from `from` (a sequence item's first key counts from after its dash). */
function indentOf(line: string, from = 0): number {
  let n = from;
  while (line.charCodeAt(n) === 0x20) n++;
  return n;
}

/** Scalars repeat in a nested record (every claim's run time, commit, exit): each decided once while they do. */
const scalars = new Map<string, unknown>();

/** A one-line scalar's value under YAML's core schema, or undefined when this reader is not sure of it. */
function typedScalar(raw: string): unknown {
  const hit = scalars.get(raw);
  if (hit !== undefined) return hit;
  if (!isScalar(raw)) return undefined;
  const c = raw.charCodeAt(0);
  const v = c === 0x22 ? (raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1)) : c === 0x27 ? raw.slice(1, -1).replace(/''/g, "'") : corePlain(raw);
  if (v !== undefined) {
    if (scalars.size >= 512) scalars.clear();
    scalars.set(raw, v);
  }
  return v;
}

/**
 * The block at `ind` from `all[i]` up to `end`, nested mappings and sequences
 * written the way js-yaml dumps them (two spaces a level, a sequence indented
 * under its key, one-line scalars, `{}` and `[]` empty): its typed reading and
 * the line after it; null on any line outside that shape. Only Baton's own
 * nested keys (the claims' `evidence`) are written so; everything else stays
 * the real parser's. Only the typed reading is built: a nested block is never
 * a key the model reads as written (see `tree`), and a 1,000-claim record is
 * most of `baton verify`'s read.
 */
function block(all: readonly string[], i: number, end: number, ind: number, depth = 0, from = -1): { value: unknown; next: number } | null {
  // With `from`, line i is a sequence item's first key: its dash read as a space, without copying the line.
  const start = i;
  const indent = (k: number): number => (k === start && from >= 0 ? indentOf(all[k], from) : indentOf(all[k]));
  if (depth > 8 || i >= end || indent(i) !== ind) return null;
  if (all[i].startsWith('- ', ind)) {
    const items: unknown[] = [];
    for (; i < end;) {
      const cur = all[i];
      const n = indent(i);
      if (n !== ind || !cur.startsWith('- ', ind)) {
        if (n > ind) return null;
        break;
      }
      const rest = cur.slice(ind + 2);
      if (!rest.includes(':')) {
        const v = typedScalar(rest);
        if (v !== undefined) {
          items.push(v);
          i++;
          continue;
        }
        if (isScalar(rest)) return null;
      }
      // `- key: value` opens a mapping whose keys stand two columns in: read as if the dash were a space.
      const m = block(all, i, end, ind + 2, depth + 1, ind + 2);
      if (!m || !m.value || Array.isArray(m.value)) return null;
      items.push(m.value);
      i = m.next;
    }
    return { value: items, next: i };
  }
  const map: Record<string, unknown> = {};
  for (; i < end;) {
    const cur = all[i];
    const n = indent(i);
    if (n !== ind || cur.startsWith('- ', ind)) {
      if (n > ind) return null;
      break;
    }
    const colon = cur.indexOf(':', ind);
    if (colon < 0) return null;
    const key = cur.slice(ind, colon);
    if (!isKey(key) || Object.prototype.hasOwnProperty.call(map, key)) return null;
    if (colon === cur.length - 1) {
      const below = i + 1 < end ? indentOf(all[i + 1]) : 0;
      if (below !== ind + 2) return null;
      const child = block(all, i + 1, end, below, depth + 1);
      if (!child) return null;
      map[key] = child.value;
      i = child.next;
      continue;
    }
    if (cur.charCodeAt(colon + 1) !== 0x20) return null;
    const v = cur.slice(colon + 2);
    if (v === '{}' || v === '[]') {
      map[key] = v === '{}' ? {} : [];
    } else {
      const t = typedScalar(v);
      if (t === undefined) return null;
      map[key] = t;
    }
    i++;
  }
  return { value: map, next: i };
}

/**
 * Walks a frontmatter in the one shape this reader is sure of: every line
 * `key: scalar`, `key:` followed by `  - scalar` items, or (under
 * `relations:`) the relation lines Baton writes; no key twice, no list
 * without items (`key:` alone is a null), at least one key. False otherwise.
 */
function scanFront(yaml: string, v: FrontVisitor): boolean {
  const seen = new Set<string>();
  // The key whose block sequence the next `  - ` lines belong to, and how many it has had.
  let listKey = '';
  let items = 0;
  const lines = yaml.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('  - ')) {
      if (!listKey) return false;
      items++;
      if (listKey === 'relations') {
        const m = RELATION_LINE.exec(line);
        if (!m || !DOUBLE.test(m[2])) return false;
        v.relation(m[1], scalar(m[2]).value);
        continue;
      }
      const raw = line.slice(4);
      if (!isScalar(raw) || !v.item(listKey, raw)) return false;
      continue;
    }
    // A key line ends the previous list, which must have had an item.
    if (listKey && items === 0) return false;
    listKey = '';
    const m = KEY_LINE.exec(line);
    if (!m) return false;
    const key = m[1];
    if (seen.has(key) || key === '__proto__') return false;
    seen.add(key);
    const raw = m[2];
    const next = lines[i + 1] ?? '';
    if ((raw === undefined || raw === '') && next.startsWith('  ') && !next.startsWith('  - ')) {
      // A nested block: every following indented line is its, in the one shape `block` reads.
      let end = i + 1;
      while (end < lines.length && lines[end].startsWith(' ')) end++;
      const b = key === 'relations' ? null : block(lines, i + 1, end, 2);
      if (!b || b.next !== end) return false;
      v.tree(key, b.value);
      i = end - 1;
      continue;
    }
    if (raw === undefined || raw === '') {
      listKey = key;
      items = 0;
      v.list(key);
      continue;
    }
    if (key === 'relations' || !isScalar(raw) || !v.value(key, raw)) return false;
  }
  return !(listKey && items === 0) && seen.size > 0;
}

// ---- the two readings ----

/**
 * The index's record of a checkpoint file, or null when it is not in the
 * shape this reader is sure of; `search`: with what full-text search indexes.
 */
export function fastRecord(text: string, id: string, search = true): IndexRecord | null {
  const split = splitFront(text);
  if (!split) return null;
  const got = { agent: '', machine: '', person: '', checkpointed: 0, firstSeen: 0, touched: [] as string[] };
  const ok = scanFront(split.yaml, {
    value(key, raw) {
      if (key === 'agent') got.agent = scalar(raw).value;
      else if (key === 'machine' || key === 'person') {
        // Typed as the real reader types it: a plain `1234` is a number there, so no origin.
        const r = readings(raw);
        if (!r) return false;
        got[key] = typeof r.typed === 'string' ? r.typed.trim() : '';
      } else if (key === 'touched') {
        const v = scalar(raw).value;
        got.touched = v ? [v] : [];
      } else if (key === 'checkpointed' || key === 'first_seen') {
        const ts = timeOf(scalar(raw));
        if (ts === null) return false;
        if (key === 'checkpointed') got.checkpointed = ts;
        else got.firstSeen = ts;
      }
      return true;
    },
    list() {},
    item(key, raw) {
      if (key === 'touched') {
        const v = scalar(raw).value;
        if (v !== '') got.touched.push(v);
      }
      return true;
    },
    relation() {},
    tree() {},
  });
  if (!ok) return null;
  const f = bodyFacts(text.slice(split.bodyStart), search);
  return {
    agent: got.agent || agentOfId(id),
    machine: got.machine,
    person: got.person,
    ts: got.checkpointed > 0 ? got.checkpointed : got.firstSeen > 0 ? got.firstSeen : 0,
    task: f.task || f.next,
    empty: f.empty,
    paths: [...f.files, ...got.touched],
    failed: f.failed,
    search: f.search,
  };
}

/** The frontmatter as the real parser reads it, or null when it is not in the shape this reader is sure of. */
export function fastFrontmatter(text: string): FastFrontmatter | null {
  const split = splitFront(text);
  if (!split) return null;
  const typed: Record<string, unknown> = {};
  const raws: Record<string, unknown> = {};
  const ok = scanFront(split.yaml, {
    value(key, raw) {
      const r = readings(raw);
      if (!r) return false;
      typed[key] = r.typed;
      raws[key] = r.raw;
      return true;
    },
    list(key) {
      typed[key] = [];
      raws[key] = [];
    },
    item(key, raw) {
      const r = readings(raw);
      if (!r) return false;
      (typed[key] as unknown[]).push(r.typed);
      (raws[key] as unknown[]).push(r.raw);
      return true;
    },
    relation(pred, obj) {
      (typed.relations as unknown[]).push({ pred, obj, conf: 1, src: 'stated' });
      (raws.relations as unknown[]).push({ pred, obj, conf: '1.0', src: 'stated' });
    },
    tree(key, t) {
      typed[key] = t;
      raws[key] = t;
    },
  });
  return ok ? { typed, raw: raws, bodyStart: split.bodyStart } : null;
}
