import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findNewestRun, listRuns } from '../../../src/run-dir/index.js';
import { loadRunIndex } from '../../../src/report/index.js';
import { RUN_INDEX_FILE } from '../../../src/artifacts/index.js';
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

describe('listRuns: a root that keeps a run index', () => {
  /** The index serve writes (loadRunIndex), made from the run dirs as they are now. */
  const writeIndex = async () => {
    await loadRunIndex({ realRoot: temp.path, nowMs: Date.now(), checkSignatures: true });
  };
  const startsOf = async () => (await listRuns(temp.path)).map((r) => [r.stamp, r.startedAtMs]);

  it('places an indexed run by its entry and opens only the runs the index does not list', async () => {
    await makeRunDir('20260101T000000Z-a', { startedAtMs: at('2026-01-01T00:00:00Z') });
    await makeRunDir('20260301T000000Z-b', { startedAtMs: at('2026-03-01T00:00:00Z') });
    const unindexed = await startsOf();
    await writeIndex();
    expect(await startsOf()).toEqual(unindexed);
    // run.json of b says another start now, by hand: the index still places b by its entry (run.json is not read)...
    const bRun = path.join(temp.path, '20260301T000000Z-b', 'run.json');
    await writeFile(
      bRun,
      (await readFile(bRun, 'utf8')).replace(
        /"startedAtMs":\d+/,
        `"startedAtMs":${at('2025-06-01T00:00:00Z')}`,
      ),
    );
    // ...and a run made after the index was written is read from its run.json.
    await makeRunDir('20261201T000000Z-c', { startedAtMs: at('2026-12-01T00:00:00Z') });
    expect(await startsOf()).toEqual([
      ['20261201T000000Z-c', at('2026-12-01T00:00:00Z')],
      ['20260301T000000Z-b', at('2026-03-01T00:00:00Z')],
      ['20260101T000000Z-a', at('2026-01-01T00:00:00Z')],
    ]);
    // Once the index is brought up to date (serve's sync, publish), the edit is seen.
    await writeIndex();
    expect((await startsOf()).map(([stamp]) => stamp)).toEqual([
      '20261201T000000Z-c',
      '20260101T000000Z-a',
      '20260301T000000Z-b',
    ]);
  });

  it('reads every run.json when the index is a link, or its lines fail the schema', async () => {
    await makeRunDir('20260101T000000Z-a', { startedAtMs: at('2026-01-01T00:00:00Z') });
    await makeRunDir('20260301T000000Z-b', { startedAtMs: at('2026-03-01T00:00:00Z') });
    const truth = await startsOf();
    // A forged index elsewhere, linked in: never followed.
    const forged = path.join(temp.path, '..', `forged-${path.basename(temp.path)}.jsonl`);
    await writeFile(
      forged,
      `${JSON.stringify({ version: 1, folder: '20260101T000000Z-a', startedAtMs: at('2030-01-01T00:00:00Z') })}\n`,
    );
    await symlink(forged, path.join(temp.path, RUN_INDEX_FILE));
    expect(await startsOf()).toEqual(truth);
    // A plain file whose line is not an entry (a start that is not a number): skipped, run.json read.
    await rm(path.join(temp.path, RUN_INDEX_FILE));
    await writeFile(
      path.join(temp.path, RUN_INDEX_FILE),
      `${JSON.stringify({ version: 1, folder: '20260101T000000Z-a', startedAtMs: 'soon' })}\n`,
    );
    expect(await startsOf()).toEqual(truth);
    await rm(forged);
  });

  it('findNewestRun passes over an indexed folder that is no longer a run dir', async () => {
    await makeRunDir('20260101T000000Z-a', { startedAtMs: at('2026-01-01T00:00:00Z') });
    await makeRunDir('20260301T000000Z-b', { startedAtMs: at('2026-03-01T00:00:00Z') });
    await writeIndex();
    await rm(path.join(temp.path, '20260301T000000Z-b', 'run.json'));
    expect(await findNewestRun(temp.path)).toBe(path.join(temp.path, '20260101T000000Z-a'));
  });
});
