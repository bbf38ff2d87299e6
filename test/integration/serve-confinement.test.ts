// Confinement in `serve` (docs/trust.md), against a real server on 127.0.0.1: a run dir of the shipped sample with
// artifacts.txt a symlink to a secret outside the root, zot.jsonl a hard link to one, a served file (report.md) a
// symlink, an in-flight run with a linked sccache.log, a run dir that is itself a link, and the root reached
// through a link. No byte of a secret reaches data.json, the page or any file answered; run dirs whose names hold
// a space, `<` or `"` are listed with encoded links and answer.
import { cp, link, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFileSchema } from '../../src/artifacts/index.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { repoRoot } from '../helpers/run-built-cli.js';
import { startServedRoot, type ServedRoot } from '../helpers/serve-client.js';

const SAMPLE = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');
const LINKED = '20260501T000000Z';
const IN_FLIGHT = '20260502T000000Z';
const ODD = ['nightly 1', 'a<b', 'say "hi"'];
let temp: TempDir;
let root: string;
let served: ServedRoot;
let secretText: string;
/** Every copy's data.json names the run by run.json's own stamp, not by its folder (docs/report.md). */
let sampleStamp: string;

async function copySample(stamp: string): Promise<string> {
  const dir = path.join(root, stamp);
  await cp(SAMPLE, dir, { recursive: true });
  await rm(path.join(dir, 'data.json'), { force: true });
  return dir;
}

beforeAll(async () => {
  sampleStamp = (JSON.parse(await readFile(path.join(SAMPLE, 'run.json'), 'utf8')) as { stamp: string })
    .stamp;
  temp = createTempDir('serve-confine');
  const realRoot = path.join(temp.path, 'real-runs');
  root = path.join(temp.path, 'runs-link'); // the root is reached through a symlink
  await mkdir(realRoot);
  await symlink(realRoot, root);
  await mkdir(path.join(temp.path, 'etc'));
  const secret = path.join(temp.path, 'etc', 'passwd');
  // Lines that parse as the files they stand in for, so a reader that followed the link would show them.
  secretText = [
    '# rocm-perf artifacts version 1',
    'image\tregistry.local/SECRET-hunter2:latest',
    JSON.stringify({ time: '2026-03-14T09:20:01Z', msg: 'SECRET-hunter2' }),
    '',
  ].join('\n');
  await writeFile(secret, secretText);
  const linked = await copySample(LINKED);
  await rm(path.join(linked, 'artifacts.txt'));
  await symlink(secret, path.join(linked, 'artifacts.txt'));
  await rm(path.join(linked, 'zot.jsonl'));
  await link(secret, path.join(linked, 'zot.jsonl'));
  await writeFile(path.join(linked, 'timeline.svg'), '<svg/>');
  await rm(path.join(linked, 'report.md'));
  await symlink(secret, path.join(linked, 'report.md'));
  const flying = await copySample(IN_FLIGHT);
  const runJson = JSON.parse(await readFile(path.join(flying, 'run.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  await writeFile(
    path.join(flying, 'run.json'),
    JSON.stringify({ ...runJson, status: 'running', finishedAtMs: null }),
  );
  await rm(path.join(flying, 'sccache.log'));
  await symlink(secret, path.join(flying, 'sccache.log'));
  // A run dir that is itself a link, to a run inside the root: a link there is not a run.
  await symlink(linked, path.join(realRoot, '20260503T000000Z'));
  for (const name of ODD) await copySample(name);
  served = await startServedRoot({ root, bind: '127.0.0.1', port: 0, refreshMs: 200 });
});

afterAll(async () => {
  await served?.close();
  temp?.remove();
});

describe('serve: nothing from outside the root', () => {
  it.each([LINKED, IN_FLIGHT])(
    '%s: data.json and the page hold no byte of the linked secret',
    async (stamp) => {
      const data = await served.get(`/runs/${stamp}/data.json`);
      expect(data.status).toBe(200);
      expect(data.body).not.toContain('SECRET');
      const model = DataFileSchema.parse(JSON.parse(data.body));
      expect(model.run.stamp).toBe(sampleStamp);
      const page = await served.get(`/runs/${stamp}/`);
      expect(page.status).toBe(200);
      expect(page.body).not.toContain('SECRET');
    },
  );

  it("names each refused file in the finished run's warnings", async () => {
    const model = DataFileSchema.parse(JSON.parse((await served.get(`/runs/${LINKED}/data.json`)).body));
    const loud = model.summary.warnings.filter((w) => w.level === 'loud').map((w) => w.message);
    expect(loud).toContainEqual(
      expect.stringMatching(/^artifacts\.txt: cannot be read \(refused: a symbolic link;/),
    );
    expect(loud).toContainEqual(
      expect.stringMatching(/^zot\.jsonl: cannot be read \(refused: a hard link \(2 names/),
    );
    expect(model.summary.streams['zot.jsonl']).toMatchObject({ present: true, bytes: 0 });
    const flying = DataFileSchema.parse(JSON.parse((await served.get(`/runs/${IN_FLIGHT}/data.json`)).body));
    expect(flying.summary.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^sccache\.log: cannot be read \(refused: a symbolic link;/),
    );
  });

  it('answers a served file that is a link with 404, and a regular one beside it with 200', async () => {
    const report = await served.get(`/runs/${LINKED}/report.md`);
    expect(report.status).toBe(404);
    expect(report.body).not.toContain('SECRET');
    expect((await served.get(`/runs/${LINKED}/timeline.svg`)).body).toBe('<svg/>');
  });

  it('neither lists nor answers a run dir that is a link, even to a run inside the root', async () => {
    expect((await served.get('/')).body).not.toContain('20260503T000000Z');
    expect((await served.get('/runs/20260503T000000Z/data.json')).status).toBe(404);
    expect((await served.get('/trends.html')).body).not.toContain('20260503T000000Z');
  });
});

describe('serve: run dirs with odd names', () => {
  it('lists each with an encoded link, and every link answers: the page and its data.json', async () => {
    const index = (await served.get('/')).body;
    for (const name of ODD) {
      const href = `/runs/${encodeURIComponent(name)}/`;
      expect(index).toContain(`<a href="${href}">`);
      const page = await served.get(href);
      expect(page.status, name).toBe(200);
      const data = await served.get(`${href}data.json`);
      expect(data.status, name).toBe(200);
      expect(DataFileSchema.parse(JSON.parse(data.body)).run.stamp, name).toBe(sampleStamp);
    }
    // The names themselves are escaped in the page.
    expect(index).toContain('>a&#60;b</a>');
    expect(index).toContain('>say &#34;hi&#34;</a>');
  });
});
