import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBake } from '../../../../src/run/executors/buildx.js';
import { createFileDigests } from '../../../../src/shared/file-digests.js';

// runBake's status stream and its digest: a real child process (a stand-in buildx, a shell script writing 200 KB
// of status lines to stderr in pieces) and the bytes that reached status-<target>.jsonl, hashed here from disk.

const dir = mkdtempSync(path.join(tmpdir(), 'run-bake-digest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runBake', () => {
  it('hands each chunk of the status stream to onStatusBytes as it writes the file', async () => {
    const buildx = path.join(dir, 'buildx');
    writeFileSync(
      buildx,
      '#!/bin/sh\ni=0\nwhile [ $i -lt 2000 ]; do echo "{\\"vertexes\\":[{\\"name\\":\\"step $i ü\\"}]}" >&2; i=$((i+1)); done\necho done\n',
    );
    chmodSync(buildx, 0o755);
    const statusFile = path.join(dir, 'status-pytorch.jsonl');
    const digests = createFileDigests();
    const digest = digests.open('status-pytorch.jsonl');
    const outcome = await runBake({
      buildx,
      builder: 'strix',
      target: 'pytorch',
      metadataFile: path.join(dir, 'meta-pytorch.json'),
      statusFile,
      noCache: false,
      clearCacheTo: false,
      push: false,
      cwd: dir,
      env: {},
      signal: new AbortController().signal,
      onStatusBytes: (bytes) => digest.update(bytes),
    });
    expect(outcome.ok).toBe(true);
    const bytes = readFileSync(statusFile);
    expect(bytes.length).toBeGreaterThan(60_000);
    expect(digests.toRecords()['status-pytorch.jsonl']).toEqual({
      sizeBytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  });
});
