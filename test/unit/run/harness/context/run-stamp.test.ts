import { describe, expect, it } from 'vitest';
import { createRunStamp, createShortId } from '../../../../../src/run/harness/context/run-stamp.js';

/** `20260820T100105Z-k3m9q2`: what run-stamp.ts documents. */
const RUN_STAMP_PATTERN = /^\d{8}T\d{6}Z-[0-9a-z]{6}$/;

describe('run stamps', () => {
  it('are a compact UTC time plus a short id', () => {
    expect(createRunStamp({ nowMs: Date.UTC(2026, 7, 20, 10, 1, 5, 750), id: 'k3m9q2' })).toBe(
      '20260820T100105Z-k3m9q2',
    );
    const id = createShortId(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(id).toMatch(/^[0-9a-z]{6}$/);
    expect(createRunStamp({ nowMs: 0, id })).toMatch(RUN_STAMP_PATTERN);
    expect(new Set(Array.from({ length: 200 }, () => createShortId())).size).toBe(200);
  });
});
