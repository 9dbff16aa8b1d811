// The one-line scalars of a fast-read frontmatter (fastReader.ts): which
// spellings every YAML reader takes as the same string, and what YAML's core
// schema makes of them. Anything not certain here sends the file to the real
// parser.

/**
 * Characters allowed anywhere in a fast-read frontmatter: printable ASCII and
 * the Basic Multilingual Plane minus what YAML treats specially or refuses
 * (C1 controls, NEL, line/paragraph separators, BOM, surrogates, non-characters).
 * Anything else (an emoji, a tab, a CR) goes to the real parser.
 */
export const UNSAFE = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

export const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/;
export const RELATION_LINE = /^ {2}- \{ pred: ([a-z_]+), obj: ("(?:[^"\\]|\\.)*"), conf: 1\.0, src: stated \}$/;

/**
 * A plain scalar that every YAML reader takes as exactly this string (in a
 * block mapping or sequence): no indicator first, no `: ` or ` #`, no trailing
 * `:` or space. Whether it is a *string* (and not a number, bool or null) is
 * decided separately, only where the type matters.
 */
const PLAIN_FIRST = /^[^\s\-?:,[\]{}#&*!|>'"%@`]/;
const PLAIN_LAST = /[^\s:]$/;
export const isPlain = (raw: string): boolean => PLAIN_FIRST.test(raw) && PLAIN_LAST.test(raw) && !raw.includes(': ') && !raw.includes(' #');

/** A double-quoted scalar using only the escapes JSON shares with YAML. */
export const DOUBLE = /^"(?:[^"\\]|\\["\\/nrt]|\\u[0-9A-Fa-f]{4})*"$/;
/** A single-quoted scalar on one line (`''` is a quote). */
const SINGLE = /^'(?:[^']|'')*'$/;

/** Whether `raw` is a one-line scalar this reader is sure of. */
export function isScalar(raw: string): boolean {
  const c = raw.charCodeAt(0);
  if (c === 0x22) return DOUBLE.test(raw);
  if (c === 0x27) return SINGLE.test(raw);
  return raw.length > 0 && isPlain(raw);
}

interface Scalar {
  kind: 'plain' | 'quoted';
  value: string;
}

/** The string of a scalar `isScalar` accepted. */
export function scalar(raw: string): Scalar {
  const c = raw.charCodeAt(0);
  if (c === 0x22) return { kind: 'quoted', value: raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1) };
  if (c === 0x27) return { kind: 'quoted', value: raw.slice(1, -1).replace(/''/g, "'") };
  return { kind: 'plain', value: raw };
}

/**
 * A time as the real reader reads it: a quoted value is a string, and a plain
 * value is a string under YAML's core schema only in these date shapes (a bare
 * number would be a number, `null` a null...). Anything else: give up (null).
 */
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))?$/;

export function timeOf(s: Scalar): number | null {
  if (s.kind === 'plain' && !PLAIN_DATE.test(s.value)) return null;
  const v = s.value.trim();
  if (!v) return 0;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/**
 * What YAML's core schema makes of a plain scalar `isPlain` accepted, or
 * undefined when this reader is not sure: null and anything shaped like a
 * number other than a small decimal integer give up; true/false are
 * booleans, small decimal integers numbers, everything else a string.
 */
const CORE_NULL = new Set(['~', 'null', 'Null', 'NULL']);
const CORE_BOOL = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);
/**
 * Every int and float form of YAML 1.2's core schema and js-yaml's (underscores, 0b/0o/0x), and more.
 * A prefix's digits are its own: a machine id such as `0bc2ae606429d1cf` (1 in 256 of them) is a string to both.
 */
const NUMBERISH =
  /^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9_]+)?|\.[0-9_]*(?:[eE][-+]?[0-9_]+)?|0[bB][01_]*|0[oO][0-7_]*|0[xX][0-9a-fA-F_]*|\.(?:inf|Inf|INF|nan|NaN|NAN))$/;
export function corePlain(v: string): unknown {
  if (CORE_NULL.has(v)) return undefined;
  const bool = CORE_BOOL.get(v);
  if (bool !== undefined) return bool;
  // Every number shape starts with a digit, a sign or a dot: any other first character is a string (the common case, decided cheaply).
  const c = v.charCodeAt(0);
  if (!((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return v;
  if (/^(?:0|[1-9][0-9]{0,14})$/.test(v)) return Number(v);
  return NUMBERISH.test(v) ? undefined : v;
}

/** A one-line scalar's two readings, or null when the typed one is not sure. */
export function readings(raw: string): { typed: unknown; raw: string } | null {
  const s = scalar(raw);
  if (s.kind === 'quoted') return { typed: s.value, raw: s.value };
  const typed = corePlain(s.value);
  return typed === undefined ? null : { typed, raw: s.value };
}
