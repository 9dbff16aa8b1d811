// The checkpoints that touched one path, packed: entries of (ts, checkpoint
// id), newest first (ties: higher id first), 12 bytes each (float64 ts: any
// time a frontmatter can hold; uint32 id). One row per path instead of one row
// per (path, checkpoint) makes a cold build of a big vault one insert per
// distinct path and keeps the index small. The list is split in two blobs:
// the newest HEAD_ENTRIES, which sit in the row itself, and the rest, which a
// popular path spills over many pages; `why` with a limit reads the head only,
// so its cost does not grow with how often a README was touched.

const ENTRY = 12;
/** Entries kept in the head: above the default `why` limit (20), and small enough to stay on the row's own page. */
export const HEAD_ENTRIES = 24;

export function touchCount(blob: Uint8Array): number {
  return Math.floor(blob.length / ENTRY);
}

/** Entry `i` of a packed list. */
export function touchAt(blob: Uint8Array, i: number): { ts: number; cp: number } {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  return { ts: view.getFloat64(i * ENTRY, true), cp: view.getUint32(i * ENTRY + 8, true) };
}

/**
 * Sorts (ts, cp) pairs given flat, `[ts0, cp0, ts1, cp1, ...]`, newest first,
 * leaving out checkpoints in `removed`, and packs them as head and rest. Flat
 * pairs cost a cold build no object per touch.
 */
export function splitPairs(flat: number[], removed: ReadonlySet<number> | null): [Uint8Array, Uint8Array] {
  const order: number[] = [];
  for (let i = 0; i < flat.length; i += 2) if (!removed?.has(flat[i + 1])) order.push(i);
  order.sort((a, b) => flat[b] - flat[a] || flat[b + 1] - flat[a + 1]);
  const pack = (from: number, to: number): Uint8Array => {
    const out = new Uint8Array(Math.max(0, to - from) * ENTRY);
    const view = new DataView(out.buffer);
    for (let k = from; k < to; k++) {
      view.setFloat64((k - from) * ENTRY, flat[order[k]], true);
      view.setUint32((k - from) * ENTRY + 8, flat[order[k] + 1], true);
    }
    return out;
  };
  const cut = Math.min(HEAD_ENTRIES, order.length);
  return [pack(0, cut), pack(cut, order.length)];
}

/** A packed list as flat pairs (see splitPairs), appended to `into`. */
export function flatPairs(blob: Uint8Array, into: number[] = []): number[] {
  for (let i = 0; i < touchCount(blob); i++) {
    const e = touchAt(blob, i);
    into.push(e.ts, e.cp);
  }
  return into;
}

/** A list of ids as little-endian uint32s. */
export function packIds(ids: number[]): Uint8Array {
  const out = Buffer.alloc(ids.length * 4);
  ids.forEach((id, i) => out.writeUInt32LE(id, i * 4));
  return out;
}

export function unpackIds(blob: Uint8Array | string | null): number[] {
  if (!(blob instanceof Uint8Array)) return [];
  const buf = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const out: number[] = [];
  for (let i = 0; i + 4 <= buf.length; i += 4) out.push(buf.readUInt32LE(i));
  return out;
}
