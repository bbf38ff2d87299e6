// `docker buildx history ls --format json` as real buildx v0.36.1 prints it for BuildKit v0.32.2 records.
import { describe, expect, it } from 'vitest';
import { pickFailedRecord } from '../../../../src/run/executors/buildx.js';
import { readRealFixture } from '../../../helpers/read-real-fixture.js';

const createdMs = (line: string) => Date.parse((JSON.parse(line) as { created_at: string }).created_at);

describe('pickFailedRecord on real history ls output', () => {
  it('finds the record of a bake cancelled with SIGINT, which history ls shows as Error, not Canceled', () => {
    const stdout = readRealFixture('history-ls-cancelled.jsonl');
    expect(stdout).toContain('"status":"Error"');
    expect(pickFailedRecord(stdout, { sinceMs: createdMs(stdout) - 1_000, status: 'canceled' })).toEqual({
      ref: 'p27/p270/uoy9tpx9vte1vu98wj4n3epso',
    });
  });

  it('buildx v0.23.0 with BuildKit v0.17.3 lists the cancelled build as Error too', () => {
    const stdout = readRealFixture('history-ls-old-pair-filter-canceled.jsonl');
    expect(pickFailedRecord(stdout, { sinceMs: createdMs(stdout) - 1_000, status: 'canceled' })).toEqual({
      ref: 'p27old/p27old0/ryn36nduzxud7y3r8h3qxe9re',
    });
    const both = readRealFixture('history-ls-old-pair-failed-cancelled.jsonl');
    expect(both.split('\n').filter((line) => line.includes('"status":"Error"'))).toHaveLength(2);
  });

  it('finds the record of a failed RUN', () => {
    const stdout = readRealFixture('history-ls-failed.jsonl');
    expect(pickFailedRecord(stdout, { sinceMs: createdMs(stdout) - 1_000 })).toEqual({
      ref: 'p27/p270/zuaytm4sxie1rnc2aj0bz1gh1',
    });
  });

  it('never takes a Running or Completed record for a failed one', () => {
    for (const name of ['history-ls-running.jsonl', 'history-ls-completed.jsonl']) {
      const stdout = readRealFixture(name);
      const first = stdout.split('\n')[0] ?? '';
      expect(pickFailedRecord(stdout, { sinceMs: createdMs(first) - 60_000 })).toEqual({
        reason: 'no failed build record since the bake started',
      });
    }
  });
});
