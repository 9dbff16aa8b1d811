// A unified-diff-like view of one file's change, for `baton connect --dry-run`:
// the lines removed (-) and added (+) with up to three lines of context, so a
// person reads what Baton would write without opening the file. Settings files
// are small; past a few thousand lines the whole new text is shown instead.

const CONTEXT = 3;
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Longest-common-subsequence edit script of two line lists. */
function script(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i++] });
      j++;
    } else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) ops.push({ kind: '+', line: b[j++] });
    else ops.push({ kind: '-', line: a[i++] });
  }
  return ops;
}

const lines = (t: string | null): string[] => (t === null || t === '' ? [] : t.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n'));

/** `--- before` / `+++ after` and the changed lines with context; '' when the texts are equal. */
export function lineDiff(before: string | null, after: string | null): string {
  if (before === after) return '';
  const a = lines(before);
  const b = lines(after);
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS) return [...b.map((l) => `+${l}`)].join('\n') + '\n';
  const ops = script(a, b);
  const keep = ops.map(() => false);
  ops.forEach((op, k) => {
    if (op.kind === ' ') return;
    for (let d = Math.max(0, k - CONTEXT); d <= Math.min(ops.length - 1, k + CONTEXT); d++) keep[d] = true;
  });
  const out: string[] = [];
  let skipped = false;
  ops.forEach((op, k) => {
    if (!keep[k]) {
      if (!skipped) out.push('@@');
      skipped = true;
      return;
    }
    skipped = false;
    out.push(`${op.kind}${op.line}`);
  });
  return out.join('\n') + '\n';
}
