// Small statistics and formatting helpers for the benchmark.

export const now = (): number => performance.now();

export async function timed<T>(fn: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const t = now();
  const value = await fn();
  return { ms: now() - t, value };
}

/** Nearest-rank percentile (p in 0..100) of a non-empty list. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1];
}

export const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** A duration for reading: µs under a millisecond, ms under ten seconds, else s. */
export function dur(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 10_000) return `${ms.toFixed(0)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export function bytes(n: number): string {
  if (n < 0) return `−${bytes(-n)}`;
  if (!Number.isFinite(n)) return 'n/a';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function ratio(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  if (x >= 100) return `${x.toFixed(0)}×`;
  if (x >= 10) return `${x.toFixed(1)}×`;
  return `${x.toFixed(2)}×`;
}

export const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(x < 0.01 ? 2 : 1)}%` : 'n/a');
