import assert from 'node:assert/strict';
import { BatonError } from '../../src/core/errors';
import { checkTime, day, MAX_TIME, parseTime, rfc3339, stamp } from '../../src/core/time';

const LAST = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

const refusedTime = (fn: () => unknown): void => {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof BatonError, `a BatonError, not ${String(err)}`);
    assert.match(err.message, /outside the times a vault file name can hold/);
    assert.match(err.message, /1970-01-01T00:00:00Z/);
    assert.match(err.message, /9999-12-31T23:59:59Z/);
    return true;
  });
};

describe('time', () => {
  it('stamps and formats the first and last second a file name can hold', () => {
    assert.equal(stamp(0), '19700101-000000');
    assert.equal(rfc3339(0), '1970-01-01T00:00:00Z');
    assert.equal(stamp(LAST), '99991231-235959');
    assert.equal(rfc3339(LAST), '9999-12-31T23:59:59Z');
    assert.equal(day(LAST), '9999-12-31');
    assert.equal(MAX_TIME, LAST);
  });

  it('parses times inside the range', () => {
    assert.equal(parseTime('0'), 0);
    assert.equal(parseTime(String(LAST)), LAST);
    assert.equal(parseTime('9999-12-31T23:59:59Z'), LAST);
    assert.equal(parseTime('2026-08-14T14:32:07Z'), 1786717927);
  });

  it('refuses with a message, never a RangeError, a time past year 9999, huge or negative', () => {
    for (const v of [String(LAST + 1), '253402300800', '100000000000000000000', '9'.repeat(400), '1969-12-31T23:59:59Z', '0000-01-01']) {
      refusedTime(() => parseTime(v));
    }
  });

  it('checkTime guards every time that reaches a file name: NaN, infinities, fractions floored', () => {
    for (const v of [LAST + 1, 1e20, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e300]) refusedTime(() => checkTime(v));
    assert.equal(checkTime(1.9), 1);
    assert.equal(checkTime(LAST + 0.5), LAST);
  });

  it('stamp and rfc3339 never throw on what a hand-written file holds, and never give a name no reader takes', () => {
    for (const ts of [LAST + 1, 1e20, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.match(stamp(ts), /^[0-9]{8}-[0-9]{6}$/, String(ts));
      assert.match(rfc3339(ts), /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$/, String(ts));
    }
  });
});
