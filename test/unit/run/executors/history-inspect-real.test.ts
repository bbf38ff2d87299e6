// `docker buildx history inspect --format json` as real buildx v0.36.1 prints BuildKit v0.32.2 records.
import { describe, expect, it } from 'vitest';
import { isRunningRecord, parseHistoryRecord } from '../../../../src/run/executors/history-record.js';
import { readRealFixture } from '../../../helpers/read-real-fixture.js';

const record = (name: string) => {
  const parsed = parseHistoryRecord(readRealFixture(name));
  if (!('record' in parsed)) throw new Error(parsed.reason);
  return parsed.record;
};

describe('history inspect records (real)', () => {
  it.each([
    ['history-inspect-push-cache-max.json', 'completed', 13, 1],
    ['history-inspect-warm-cached.json', 'completed', 13, 3],
    ['history-inspect-failed.json', 'failed', 7, 1],
    ['history-inspect-cancelled.json', 'canceled', 5, 1],
    ['history-inspect-running.json', 'running', 0, 0],
    ['history-inspect-no-cache.json', 'completed', 6, 1],
    ['history-inspect-old-pair-push-cache-max.json', 'completed', 13, 0],
    ['history-inspect-v0.14.1.json', 'completed', 13, 3],
    ['history-inspect-two-targets-pytorch.json', 'completed', 9, 0],
  ])('%s: status %s, %d steps, %d cached', (name, status, total, cached) => {
    expect(record(name)).toMatchObject({ Status: status, NumTotalSteps: total, NumCachedSteps: cached });
  });

  it('reads the error of a failed RUN: code, message, step name, logs, base64 sources and stack', () => {
    const error = record('history-inspect-failed.json').Error;
    expect(error).toMatchObject({
      Code: 2,
      Name: '[2/3] RUN echo compiling for gfx1201 && exit 3',
      Logs: ['compiling for gfx1201'],
    });
    expect(error?.Message).toContain('exit code: 3');
    expect(Buffer.from(error?.Sources ?? '', 'base64').toString()).toContain('>>> RUN echo compiling');
    expect(record('history-inspect-cancelled.json').Error).toMatchObject({
      Code: 1,
      Message: 'context canceled',
    });
  });

  it('reads Config.NoCache as the boolean real buildx prints', () => {
    expect(record('history-inspect-no-cache.json').Config).toEqual({ NoCache: true });
  });

  it('a running record (no CompletedAt, counts still 0) is running; finished ones are not', () => {
    expect(record('history-inspect-running.json').CompletedAt).toBeUndefined();
    expect(isRunningRecord(readRealFixture('history-inspect-running.json'))).toBe(true);
    expect(isRunningRecord(readRealFixture('history-inspect-cancelled.json'))).toBe(false);
    expect(isRunningRecord('ERROR: no record found for ref "x"')).toBe(false);
  });
});
