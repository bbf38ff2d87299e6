// The caps on a .dockerbuild, lowered so a test can cross them: the file's size, what it unpacks to (a gzip bomb
// stops at the cap, not at the end of memory) and one member's size; each a UsageError naming the file, nothing
// written. Then the real fixture within the caps, written as the run dir the converter made.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readDockerbuild } from '../../../src/import/read-dockerbuild.js';

const fixture = path.resolve(import.meta.dirname, '../../fixtures/dockerbuild/single-record.dockerbuild');
const dir = mkdtempSync(path.join(os.tmpdir(), 'read-dockerbuild-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const roomy = { fileBytes: 2 ** 30, unpackedBytes: 2 ** 30, memberBytes: 2 ** 30 };

async function refusal(file: string, limits: typeof roomy): Promise<string> {
  const into = mkdtempSync(path.join(dir, 'into-'));
  const error = await readDockerbuild({ file, source: 'ci.dockerbuild', into, limits }).then(
    () => undefined,
    (caught: unknown) => caught as Error,
  );
  expect(readdirSync(into)).toEqual([]);
  return error?.message ?? 'no error';
}

describe('readDockerbuild', () => {
  const size = readFileSync(fixture).length;
  const unpacked = gunzipSync(readFileSync(fixture)).length;

  it('refuses a file over the size cap', async () => {
    expect(await refusal(fixture, { ...roomy, fileBytes: size - 1 })).toBe(
      `ci.dockerbuild: ${size} bytes, over the ${size - 1}-byte limit for a .dockerbuild; nothing was imported`,
    );
  });

  it('stops unpacking at the cap: a gzip bomb never fills memory', async () => {
    expect(await refusal(fixture, { ...roomy, unpackedBytes: unpacked - 1 })).toBe(
      `ci.dockerbuild: unpacks to more than ${unpacked - 1} bytes; nothing was imported`,
    );
    const bomb = path.join(dir, 'bomb.dockerbuild');
    writeFileSync(bomb, gzipSync(Buffer.alloc(64 * 2 ** 20)));
    expect(await refusal(bomb, { ...roomy, unpackedBytes: 2 ** 20 })).toBe(
      `ci.dockerbuild: unpacks to more than ${2 ** 20} bytes; nothing was imported`,
    );
  });

  it('refuses a member over the member cap, naming it', async () => {
    expect(await refusal(fixture, { ...roomy, memberBytes: 4096 })).toMatch(
      /^ci\.dockerbuild: \d+ entr(y is|ies are) not a regular file of the record archive: blobs\/sha256\/[0-9a-f]{64} \(\d+ bytes, over the 4096-byte limit for one member\)/,
    );
  });

  it('writes the record within the caps as one run dir', async () => {
    const into = mkdtempSync(path.join(dir, 'into-'));
    const run = await readDockerbuild({ file: fixture, source: 'ci.dockerbuild', into, limits: roomy });
    expect(path.dirname(run)).toBe(into);
    expect(readdirSync(run).sort()).toEqual([
      'provenance-pytorch.json',
      'run.json',
      'status-pytorch.jsonl',
      'trace-pytorch.json',
    ]);
  });
});
