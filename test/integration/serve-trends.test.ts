import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportModel } from '../../src/report/build-model.js';
import { readRunInputs } from '../../src/run-dir/index.js';
import { serialiseModel } from '../../src/report/write-report.js';
import { writeFixtureRun } from '../../scripts/make-fixture-run.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { startServedRoot, type ServedRoot } from '../helpers/serve-client.js';
import { openRunDir } from '../../src/run-dir/open-run-dir.js';

// serve's trends page on 127.0.0.1 over a temp runs root: linked from `/`, one section per harness, the latest
// warm run's doubled makespan flagged, an unreadable run named, a symlinked run outside the root left out.

let temp: TempDir;
let outside: TempDir;
let served: ServedRoot;
const WARM = ['20260301T000000Z', '20260302T000000Z', '20260303T000000Z', '20260304T000000Z'];

const get = (pathname: string): ReturnType<ServedRoot['get']> => served.get(pathname);

beforeAll(async () => {
  temp = createTempDir('serve-trends');
  outside = createTempDir('serve-trends-outside');
  const common = { nodeCount: 2, durationSeconds: 600, targetsPerNode: 2, sampleIntervalMs: 10_000 };
  for (const stamp of WARM)
    await writeFixtureRun({ ...common, dir: path.join(temp.path, stamp), stamp, harness: 'warm', seed: 5 });
  await writeFixtureRun({
    ...common,
    dir: path.join(temp.path, '20260305T000000Z'),
    stamp: '20260305T000000Z',
    harness: 'cold',
    seed: 6,
  });
  const latest = path.join(temp.path, WARM[3]!);
  const model = buildReportModel(
    await readRunInputs({ runDir: openRunDir(latest), generatedAtMs: Date.now() }),
  );
  await writeFile(
    path.join(latest, 'data.json'),
    serialiseModel({
      ...model,
      summary: { ...model.summary, makespanSeconds: 2 * model.summary.makespanSeconds! },
    }),
  );
  await mkdir(path.join(temp.path, '20260306T000000Z'));
  await writeFile(path.join(temp.path, '20260306T000000Z', 'run.json'), '{}');
  await writeFixtureRun({
    ...common,
    dir: path.join(outside.path, 'evil'),
    stamp: '20991231T000000Z',
    harness: 'bench',
    seed: 7,
  });
  await symlink(path.join(outside.path, 'evil'), path.join(temp.path, '20991231T000000Z'));
  served = await startServedRoot({ root: temp.path, bind: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await served?.close();
  temp?.remove();
  outside?.remove();
});

describe('serve: trends', () => {
  it('links trends.html from the index', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<a id="trends-link" href="/trends.html">Trends across runs</a>');
  });

  it('serves trends.html per harness, flags the regression, names the unreadable run, leaves out the symlink', async () => {
    const page = await get('/trends.html');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('<h2>cold harness, lane fleet — 1 run</h2>');
    expect(page.body).toContain('<h2>warm harness, lane fleet — 4 runs</h2>');
    expect(page.body).not.toContain('bench harness');
    expect(page.body).not.toContain('20991231T000000Z');
    expect(page.body).toContain('<strong class="flag">1 regression(s) in the latest run</strong>');
    expect(page.body).toMatch(
      new RegExp(
        `<li><a href="/runs/${WARM[3]}/">${WARM[3]}</a>: makespan [^<]+ vs median [^<]+ \\(\\+100%\\)</li>`,
      ),
    );
    // Named with a short reason; the path and the schema's words go to serve's log, not to viewers.
    expect(page.body).toContain(
      '<p class="note">20260306T000000Z left out: run.json is not in a format this rocm-perf reads</p>',
    );
    expect((await get('/trends.html?x=1')).body).toBe(page.body);
  });
});
