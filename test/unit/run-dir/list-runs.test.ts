import { readFileSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRuns } from '../../../src/run-dir/index.js';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';

// listRuns orders runs newest first by when they started (run.json's startedAtMs), never by folder name: the
// shipped samples are named gfx1201-cold/-warm, and a renamed or copied folder keeps its run's time.

let temp: TempDir;
beforeEach(() => {
  temp = createTempDir('list-runs');
});
afterEach(() => temp.remove());

/** A real run.json (the shipped warm sample's), its start time set per test. */
const SAMPLE_RUN = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../../fixtures/runs/gfx1201-warm/run.json'), 'utf8'),
) as Record<string, unknown>;

/** `{ startedAtMs }`: a valid run.json that started then; `{}`: a run.json that says nothing usable. */
async function makeRunDir(
  name: string,
  runJson: { startedAtMs?: number } | undefined,
  mtimeMs?: number,
): Promise<void> {
  const dir = path.join(temp.path, name);
  await mkdir(dir);
  const content = runJson?.startedAtMs === undefined ? runJson : { ...SAMPLE_RUN, ...runJson };
  if (content !== undefined) await writeFile(path.join(dir, 'run.json'), JSON.stringify(content));
  else {
    // A run from elsewhere without run.json: a trace beside another file a run writes (isRunDir, docs/trust.md).
    await writeFile(path.join(dir, 'samples.jsonl'), '');
    await writeFile(path.join(dir, 'trace-pytorch.json'), '{}');
  }
  if (mtimeMs !== undefined) await utimes(dir, mtimeMs / 1000, mtimeMs / 1000);
}

const at = (iso: string): number => Date.parse(iso);

describe('listRuns: newest first by start time', () => {
  it('orders by run.json startedAtMs where the names sort the other way', async () => {
    // Name order (descending): zz-oldest, mm-newest, aa-middle, 20991231T… ; time order is the reverse of it.
    await makeRunDir('zz-oldest', { startedAtMs: at('2026-01-01T00:00:00Z') });
    await makeRunDir('mm-newest', { startedAtMs: at('2026-12-06T06:05:24Z') });
    await makeRunDir('aa-middle', { startedAtMs: at('2026-06-01T00:00:00Z') });
    // A harness stamp that names a far later time, but its run.json says when it really started.
    await makeRunDir('20991231T000000Z-copied', { startedAtMs: at('2025-01-01T00:00:00Z') });
    const names = (await listRuns(temp.path)).map((r) => r.stamp);
    expect(names).toEqual(['mm-newest', 'aa-middle', 'zz-oldest', '20991231T000000Z-copied']);
  });

  it('places a dir without a start time by the time its stamp-shaped name spells, else by its mtime', async () => {
    await makeRunDir('b-started', { startedAtMs: at('2026-03-01T00:00:00Z') });
    await makeRunDir('20260201T000000Z', {}); // run.json without startedAtMs: the name's time
    await makeRunDir('20260401T000000Z', undefined); // no run.json at all: the name's time
    await makeRunDir('no-stamp', undefined, at('2026-02-15T00:00:00Z')); // neither: mtime
    const names = (await listRuns(temp.path)).map((r) => r.stamp);
    expect(names).toEqual(['20260401T000000Z', 'b-started', 'no-stamp', '20260201T000000Z']);
  });

  it('reads a damaged run.json as no start time, without throwing', async () => {
    await makeRunDir('20260101T000000Z', { startedAtMs: at('2026-05-01T00:00:00Z') });
    await mkdir(path.join(temp.path, '20260301T000000Z'));
    await writeFile(path.join(temp.path, '20260301T000000Z', 'run.json'), '{"startedAtMs": "soon"');
    const runs = await listRuns(temp.path);
    expect(runs.map((r) => [r.stamp, r.startedAtMs])).toEqual([
      ['20260101T000000Z', at('2026-05-01T00:00:00Z')],
      ['20260301T000000Z', undefined],
    ]);
  });
});
