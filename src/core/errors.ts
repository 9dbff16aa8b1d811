/**
 * Why an operation did not happen. `usage` is a malformed request (CLI exit 2);
 * `refused` is a well-formed request the rules forbid (exit 1); `failed` is the
 * world getting in the way: a read-only folder, a torn file (exit 1). The
 * message always says what was wrong and what to do about it.
 */
export type BatonErrorKind = 'usage' | 'refused' | 'failed';

export class BatonError extends Error {
  constructor(
    readonly kind: BatonErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'BatonError';
  }
}

export const refused = (message: string): BatonError => new BatonError('refused', message);
export const usage = (message: string): BatonError => new BatonError('usage', message);

/**
 * The vault folder would not take a write (read-only, full, permissions). The
 * caller may keep the write elsewhere and say it is not yet durable.
 */
export class VaultWriteError extends BatonError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super('failed', message);
    this.name = 'VaultWriteError';
  }
}

/**
 * A vault file exists but cannot be read (permissions, an I/O error). Never
 * taken for an empty file: what it holds would be lost by a rewrite.
 */
export class VaultReadError extends BatonError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super('failed', message);
    this.name = 'VaultReadError';
  }
}
