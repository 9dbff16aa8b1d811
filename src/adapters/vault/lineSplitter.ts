// Lines of a byte stream, for files read a chunk at a time (notes files and
// checkpoints of any size): bytes, not strings, so a chunk boundary inside a
// UTF-8 sequence changes nothing and a line is kept byte for byte.
/** Splits a byte stream on `\n`; a line is handed over without its `\n` (and `ended` false for a last line with none). */
export class LineSplitter {
  private pieces: Buffer[] = [];
  private pending = 0;
  private dropped = 0;

  /**
   * `maxLine`: bytes of a line kept at most; the rest is counted (`dropped`),
   * so one 50 MB line costs no 50 MB buffer. Unbounded by default (a notes
   * file's lines are kept byte for byte).
   */
  constructor(
    private readonly onLine: (line: Buffer, ended: boolean, dropped: number) => void,
    private readonly maxLine = Infinity,
  ) {}

  push(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      if (nl < 0) break;
      this.add(chunk.subarray(from, nl), false);
      this.emit(true);
      from = nl + 1;
    }
    if (from < chunk.length) this.add(chunk.subarray(from), true);
  }

  end(): void {
    if (this.pieces.length || this.dropped) this.emit(false);
  }

  private add(part: Buffer, copy: boolean): void {
    const room = this.maxLine - this.pending;
    if (part.length > room) {
      this.dropped += part.length - Math.max(0, room);
      part = part.subarray(0, Math.max(0, room));
    }
    if (part.length === 0) return;
    // Copied when kept past this call: the caller reuses its read buffer.
    const piece = copy ? Buffer.from(part) : part;
    this.pieces.push(piece);
    this.pending += piece.length;
  }

  private emit(ended: boolean): void {
    const line = this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.pending);
    const dropped = this.dropped;
    this.pieces = [];
    this.pending = 0;
    this.dropped = 0;
    this.onLine(line, ended, dropped);
  }
}
