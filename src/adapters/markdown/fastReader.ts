// The fast reader of checkpoint files, self-contained on purpose: the function
// below references nothing outside its own body but the body reader it is
// handed, so its source can also run in a worker thread (index/parallelRead.ts)
// during a cold build. The index reads
// its records through it, and `parseCheckpoint` its frontmatter.
//
// It reads the frontmatter Baton and Logos write by hand, line by line, and
// gives up (returns null) on anything it does not recognise with certainty:
// a line outside the shape, a duplicate key, a character YAML might refuse, a
// value whose YAML type could be other than a string. The caller then uses the
// real parser (`parseCheckpoint`), so the index sees exactly what every other
// reader sees; `test/unit/indexRecord.test.ts` checks the two agree on the
// benchmark's generated corpus, on hand-mangled and on random files.
//
// The body is read by bodyReader.ts, passed in so that a worker can be given
// both sources.
import { bodyReader, type BodyFacts, type BodyReader } from './bodyReader';

export type { BodyFacts };

/** What the index keeps of one checkpoint. */
export interface IndexRecord {
  agent: string;
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
}


/** A frontmatter as the real parser's two readings give it: YAML's core schema, and strings only. */
export interface FastFrontmatter {
  typed: Record<string, unknown>;
  raw: Record<string, unknown>;
  /** Where the body starts in the text. */
  bodyStart: number;
}

export interface FastReader {
  /** The record, or null when the file is not in the shape this reader is sure of. */
  fastRecord(text: string, id: string): IndexRecord | null;
  /** The frontmatter, or null when it is not in the shape this reader is sure of. */
  frontmatter(text: string): FastFrontmatter | null;
  bodyFacts(body: string): BodyFacts;
}

export function fastReader(makeBody: () => BodyReader = bodyReader): FastReader {
  const { bodyFacts } = makeBody();

  // ---- the frontmatter ----
  /**
   * Characters allowed anywhere in a fast-read frontmatter: printable ASCII and
   * the Basic Multilingual Plane minus what YAML treats specially or refuses
   * (C1 controls, NEL, line/paragraph separators, BOM, surrogates, non-characters).
   * Anything else (an emoji, a tab, a CR) goes to the real parser.
   */
  const UNSAFE = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

  const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/;
  const RELATION_LINE = /^ {2}- \{ pred: [a-z_]+, obj: ("(?:[^"\\]|\\.)*"), conf: 1\.0, src: stated \}$/;

  /**
   * A plain scalar that every YAML reader takes as exactly this string (in a
   * block mapping or sequence): no indicator first, no `: ` or ` #`, no trailing
   * `:` or space. Whether it is a *string* (and not a number, bool or null) is
   * decided separately, only where the type matters.
   */
  const PLAIN_FIRST = /^[^\s\-?:,[\]{}#&*!|>'"%@`]/;
  const PLAIN_LAST = /[^\s:]$/;
  const isPlain = (raw: string): boolean => PLAIN_FIRST.test(raw) && PLAIN_LAST.test(raw) && !raw.includes(': ') && !raw.includes(' #');

  /** A double-quoted scalar using only the escapes JSON shares with YAML. */
  const DOUBLE = /^"(?:[^"\\]|\\["\\/nrt]|\\u[0-9A-Fa-f]{4})*"$/;
  /** A single-quoted scalar on one line (`''` is a quote). */
  const SINGLE = /^'(?:[^']|'')*'$/;

  /** Whether `raw` is a one-line scalar this reader is sure of. */
  function isScalar(raw: string): boolean {
    const c = raw.charCodeAt(0);
    if (c === 0x22) return DOUBLE.test(raw);
    if (c === 0x27) return SINGLE.test(raw);
    return raw.length > 0 && isPlain(raw);
  }

  type Scalar = { kind: 'plain' | 'quoted'; value: string };

  /** The string of a scalar `isScalar` accepted. */
  function scalar(raw: string): Scalar {
    const c = raw.charCodeAt(0);
    if (c === 0x22) return { kind: 'quoted', value: raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1) };
    if (c === 0x27) return { kind: 'quoted', value: raw.slice(1, -1).replace(/''/g, "'") };
    return { kind: 'plain', value: raw };
  }

  /**
   * A time as the real reader reads it: a quoted value is a string, and a plain
   * value is a string under YAML's core schema only in these date shapes (a bare
   * number would be a number, `null` a null...). Anything else: give up.
   */
  const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))?$/;

  function timeOf(s: Scalar): number | null {
    if (s.kind === 'plain' && !PLAIN_DATE.test(s.value)) return null;
    const v = s.value.trim();
    if (!v) return 0;
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
  }

  /** The agent from an id `<stamp>-<agent>`, for files whose frontmatter lost it (as the real reader does). */
  const agentOfId = (id: string): string => /^(?:plan-)?[0-9]{8}-[0-9]{6}-(.+)$/.exec(id)?.[1] ?? '';

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

  /**
   * The record, or null when the file is not in the shape this reader is sure of.
   * The frontmatter must open the file with `---\n` and close with a `---` line;
   * every line between must be `key: scalar`, `key:` followed by `  - scalar`
   * items, or (under `relations:`) the relation lines Baton writes.
   */
  function fastRecord(text: string, id: string): IndexRecord | null {
    const split = splitFront(text);
    if (!split) return null;
    const { yaml, bodyStart } = split;

    const seen = new Set<string>();
    let agent = '';
    let checkpointed: number | null = null;
    let firstSeen: number | null = null;
    let touched: string[] = [];
    // The key whose block sequence the next `  - ` lines belong to, and how many it has had.
    let listKey = '';
    let items = 0;

    const lines = yaml.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.startsWith('  - ')) {
        if (!listKey) return null;
        items++;
        if (listKey === 'relations') {
          const m = RELATION_LINE.exec(line);
          if (!m || !DOUBLE.test(m[1])) return null;
          continue;
        }
        const raw = line.slice(4);
        if (!isScalar(raw)) return null;
        if (listKey === 'touched') {
          const v = scalar(raw).value;
          if (v !== '') touched.push(v);
        }
        continue;
      }
      // A key line ends the previous list, which must have had an item (`key:` alone is a null).
      if (listKey && items === 0) return null;
      listKey = '';
      const m = KEY_LINE.exec(line);
      if (!m) return null;
      const key = m[1];
      if (seen.has(key) || key === '__proto__') return null;
      seen.add(key);
      const raw = m[2];
      if (raw === undefined || raw === '') {
        listKey = key;
        items = 0;
        continue;
      }
      if (key === 'relations' || !isScalar(raw)) return null;
      if (key === 'agent') agent = scalar(raw).value;
      else if (key === 'touched') {
        const v = scalar(raw).value;
        touched = v ? [v] : [];
      } else if (key === 'checkpointed') {
        checkpointed = timeOf(scalar(raw));
        if (checkpointed === null) return null;
      } else if (key === 'first_seen') {
        firstSeen = timeOf(scalar(raw));
        if (firstSeen === null) return null;
      }
    }
    if (listKey && items === 0) return null;
    if (seen.size === 0) return null;

    const f = bodyFacts(text.slice(bodyStart));
    return {
      agent: agent || agentOfId(id),
      ts: checkpointed !== null && checkpointed > 0 ? checkpointed : firstSeen !== null && firstSeen > 0 ? firstSeen : 0,
      task: f.task || f.next,
      empty: !f.says && !f.task && !f.next && f.failed.length === 0,
      paths: [...f.files, ...touched],
      failed: f.failed,
    };
  }

  /**
   * What YAML's core schema makes of a plain scalar `isPlain` accepted, or
   * undefined when this reader is not sure: null and anything shaped like a
   * number other than a small decimal integer give up; true/false are
   * booleans, small decimal integers numbers, everything else a string.
   */
  const CORE_NULL = new Set(['~', 'null', 'Null', 'NULL']);
  const CORE_BOOL = new Map([['true', true], ['True', true], ['TRUE', true], ['false', false], ['False', false], ['FALSE', false]]);
  /** Every int and float form of YAML 1.2's core schema and js-yaml's (underscores, 0b/0o/0x), and more. */
  const NUMBERISH = /^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9_]+)?|\.[0-9_]*(?:[eE][-+]?[0-9_]+)?|0[bBoOxX][0-9a-fA-F_]*|\.(?:inf|Inf|INF|nan|NaN|NAN))$/;
  function corePlain(v: string): unknown {
    if (CORE_NULL.has(v)) return undefined;
    const bool = CORE_BOOL.get(v);
    if (bool !== undefined) return bool;
    if (/^(?:0|[1-9][0-9]{0,14})$/.test(v)) return Number(v);
    return NUMBERISH.test(v) ? undefined : v;
  }

  /** A one-line scalar's two readings, or null when the typed one is not sure. */
  function readings(raw: string): { typed: unknown; raw: string } | null {
    const s = scalar(raw);
    if (s.kind === 'quoted') return { typed: s.value, raw: s.value };
    const typed = corePlain(s.value);
    return typed === undefined ? null : { typed, raw: s.value };
  }

  /**
   * The frontmatter in the shape `fastRecord` accepts (every line `key: scalar`,
   * `key:` then `  - scalar` items, or Baton's relation lines), read as the
   * real parser reads it; null for anything else.
   */
  function frontmatter(text: string): FastFrontmatter | null {
    const split = splitFront(text);
    if (!split) return null;
    const { yaml, bodyStart } = split;
    const typed: Record<string, unknown> = {};
    const raws: Record<string, unknown> = {};
    let listKey = '';
    let typedItems: unknown[] = [];
    let rawItems: unknown[] = [];
    for (const line of yaml.split('\n')) {
      if (line.startsWith('  - ')) {
        if (!listKey) return null;
        if (listKey === 'relations') {
          const m = RELATION_LINE.exec(line);
          if (!m || !DOUBLE.test(m[1])) return null;
          const pred = line.slice(line.indexOf('pred: ') + 6, line.indexOf(', obj: '));
          const obj = scalar(m[1]).value;
          typedItems.push({ pred, obj, conf: 1, src: 'stated' });
          rawItems.push({ pred, obj, conf: '1.0', src: 'stated' });
          continue;
        }
        const item = line.slice(4);
        const r = isScalar(item) ? readings(item) : null;
        if (!r) return null;
        typedItems.push(r.typed);
        rawItems.push(r.raw);
        continue;
      }
      if (listKey && typedItems.length === 0) return null;
      listKey = '';
      const m = KEY_LINE.exec(line);
      if (!m) return null;
      const key = m[1];
      if (Object.prototype.hasOwnProperty.call(typed, key) || key === '__proto__') return null;
      const value = m[2];
      if (value === undefined || value === '') {
        listKey = key;
        typedItems = typed[key] = [] as unknown[];
        rawItems = raws[key] = [] as unknown[];
        continue;
      }
      if (key === 'relations' || !isScalar(value)) return null;
      const r = readings(value);
      if (!r) return null;
      typed[key] = r.typed;
      raws[key] = r.raw;
    }
    if (listKey && typedItems.length === 0) return null;
    if (Object.keys(typed).length === 0) return null;
    return { typed, raw: raws, bodyStart };
  }

  return { fastRecord, frontmatter, bodyFacts };
}
