// Time in the vault: file stamps are UTC `YYYYMMDD-HHMMSS` (a vault shared by
// machines in several time zones stays in order), frontmatter times are RFC 3339.
import { type BatonError, usage } from './errors';

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/**
 * The times a vault can hold: a checkpoint's name starts with exactly eight
 * digits of date (`YYYYMMDD`, so years 0000-9999) and a note's `ts=` is
 * unsigned digits, so 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z. A time
 * outside was written as a file no reader takes for a checkpoint (year 10000:
 * `100000101-…`), a note stored as another time (a negative one), or a
 * `RangeError` stack (1e20 seconds).
 */
export const MIN_TIME = 0;
export const MAX_TIME = 253402300799;

const outOfRange = (shownAs: string): BatonError =>
  usage(`${shownAs} is outside the times a vault file name can hold (1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z): ` + 'give a time in that range.');

/** Whole unix seconds inside the range, else refused with a message (never a `RangeError`). */
export function checkTime(ts: number, shownAs = `The time ${String(ts).slice(0, 40)}`): number {
  if (!Number.isFinite(ts) || ts < MIN_TIME || ts >= MAX_TIME + 1) throw outOfRange(shownAs);
  return Math.floor(ts);
}

// Readers format whatever a hand-written file holds (`ts=99999999999999`);
// they must not throw, and writers never get here with such a time
// (`checkTime` refuses it first), so formatting clamps.
const inRange = (ts: number): number => (Number.isFinite(ts) ? Math.min(MAX_TIME, Math.max(MIN_TIME, Math.floor(ts))) : MIN_TIME);

/** `YYYYMMDD-HHMMSS` in UTC, the prefix of checkpoint and plan file names. */
export function stamp(ts: number): string {
  const d = new Date(inRange(ts) * 1000);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-` + `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** RFC 3339 in UTC with a `Z`, seconds precision. */
export function rfc3339(ts: number): string {
  return new Date(inRange(ts) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `YYYY-MM-DD` in UTC. */
export function day(ts: number): string {
  return rfc3339(ts).slice(0, 10);
}

/**
 * Parses a time given on the command line or by a tool: unix seconds, or RFC 3339
 * (a date alone means its midnight UTC). Refuses anything else rather than guessing.
 */
export function parseTime(value: string): number {
  const v = value.trim();
  const shownAs = `"${v.length > 40 ? `${v.slice(0, 30)}…` : v}"`;
  if (/^\d+(\.\d+)?$/.test(v)) return checkTime(Number(v), shownAs);
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/i.test(v)) {
    const ms = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
    if (!Number.isNaN(ms)) return checkTime(ms / 1000, shownAs);
  }
  throw usage(`"${value}" is not a time: give RFC 3339 (2026-08-14T14:32:07Z) or unix seconds.`);
}

/** Reads a frontmatter time leniently: Date objects (YAML timestamps), strings, numbers; 0 when unreadable. */
export function readTime(value: unknown): number {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 0 : Math.floor(value.getTime() / 1000);
  if (typeof value === 'number' && Number.isFinite(value)) return Math.floor(value);
  if (typeof value === 'string' && value.trim()) {
    const ms = Date.parse(value.trim());
    return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
  }
  return 0;
}

/** "3m", "2h", "5d": the age people read in lists. */
export function age(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
