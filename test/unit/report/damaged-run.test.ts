import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { DataFile } from '../../../src/artifacts/index.js';
import { buildReportModel } from '../../../src/report/build-model.js';
import { readRunInputs } from '../../../src/run-dir/index.js';
import {
  countCacheBlobWrites,
  countSccacheHits,
  measuredWindowMs,
  readRunJson,
  recordedSliceBytes,
  sampleTimesByNode,
  withCommas,
} from '../../helpers/sample-run-facts.js';
import { openRunDir } from '../../../src/run-dir/open-run-dir.js';

// The shipped sample run (fixtures/runs/gfx1201-warm, recorded on the fleet in a box, with run.json's slice sizes and
// file digests),
// damaged the ways issue 28 found them passing silently: each damage is a loud warning naming the file and what is
// missing, and the figures drawn from the file are marked partial in data.json. The expected figures are read from the
// sample's own files (test/helpers/sample-run-facts.ts), so a re-recorded sample moves them along.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sample = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');
const temp = mkdtempSync(path.join(tmpdir(), 'damaged-run-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const REFUSED_TAIL = 'a run-dir file is read only when it is a regular file of its own, never through a link';

let copies = 0;
function copySample(): string {
  const dir = path.join(temp, `run-${(copies += 1)}`);
  cpSync(sample, dir, { recursive: true });
  return dir;
}

function cutToHalf(file: string): void {
  const bytes = readFileSync(file);
  writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
}

function insertLine(file: string, lineIndex: number, line: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.splice(lineIndex, 0, line);
  writeFileSync(file, lines.join('\n'));
}

async function modelOf(dir: string): Promise<DataFile> {
  return buildReportModel(await readRunInputs({ runDir: openRunDir(dir), generatedAtMs: 0 }));
}

const loudOf = (model: DataFile) => model.summary.warnings.filter((w) => w.level === 'loud');

const run = readRunJson(sample);
const cachePatterns = run.registryCachePatterns ?? [];
const sccachePrefix = run.sccachePrefix ?? '';

/** The slice run.json recorded for the file, and what is left of it: `left of the recorded bytes`. */
function shortfallOf(dir: string, name: string): { left: string; recorded: string; missing: string } {
  const recorded = recordedSliceBytes(dir, name);
  const left = statSync(path.join(dir, name)).size;
  expect(left).toBeLessThan(recorded);
  return { left: withCommas(left), recorded: withCommas(recorded), missing: withCommas(recorded - left) };
}

/**
 * The digest finding for a changed or absent file, worked out here: run.json's `files` entry (what the harness wrote)
 * against the sha256 and size of what is on disk now. The sample records its files, so every damage says this first.
 */
function digestFindingOf(dir: string, name: string): string {
  const files = (
    JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as {
      files: Record<string, { sizeBytes: number; sha256: string }>;
    }
  ).files;
  const recorded = files[name]!;
  const short = (sha: string) => `${sha.slice(0, 12)}…`;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.join(dir, name));
  } catch {
    return `${name}: absent, but the run wrote the ${withCommas(recorded.sizeBytes)}-byte file run.json recorded (sha256 ${short(recorded.sha256)}); every figure from it is missing`;
  }
  const size = bytes.length === recorded.sizeBytes ? 'same size' : `${withCommas(bytes.length)} bytes`;
  return `${name}: sha256 ${short(createHash('sha256').update(bytes).digest('hex'))} (${size}) is not the ${withCommas(recorded.sizeBytes)}-byte file run.json recorded (sha256 ${short(recorded.sha256)}): the file was changed after the run; its figures are marked partial`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the shipped warm sample run, damaged', () => {
  it('intact: no loud warning and nothing partial', async () => {
    const dir = copySample();
    // The slices are as run.json recorded them, so every check below starts from a clean sample.
    for (const name of ['zot.jsonl', 'sccache.log'])
      expect(statSync(path.join(dir, name)).size).toBe(recordedSliceBytes(dir, name));
    const model = await modelOf(dir);
    expect(loudOf(model)).toEqual([]);
    expect(model.summary.registry.partial).toEqual([]);
    expect(model.summary.sccache.partial).toEqual([]);
    expect(model.summary.nodes.flatMap((n) => n.partial)).toEqual([]);
    const blobs = countCacheBlobWrites(path.join(dir, 'zot.jsonl'), cachePatterns);
    expect(blobs).toBeGreaterThan(0);
    expect(model.summary.registry.cache.blobsWritten).toBe(blobs);
    expect(model.summary.sccache.total.hits).toBe(
      countSccacheHits(path.join(dir, 'sccache.log'), sccachePrefix),
    );
  });

  it('zot.jsonl cut to half: the shortfall against run.json and the cut last line; registry partial', async () => {
    const dir = copySample();
    cutToHalf(path.join(dir, 'zot.jsonl'));
    const { left, recorded, missing } = shortfallOf(dir, 'zot.jsonl');
    const model = await modelOf(dir);
    expect(loudOf(model).map((w) => w.message)).toEqual([
      digestFindingOf(dir, 'zot.jsonl'),
      `zot.jsonl: ${left} of the ${recorded} bytes run.json recorded for this slice (${missing} bytes missing: the file was cut short after the run); its figures count only what is left`,
      'zot.jsonl: the last line is cut off (no newline, and what is there does not parse): the file was truncated; its figures miss at least that line',
    ]);
    expect(model.summary.registry.partial).toEqual(['zot.jsonl']);
    expect(model.summary.sccache.partial).toEqual([]);
    // What is left is counted: the cache blobs of the whole lines before the cut, fewer than the intact file's.
    const blobsLeft = countCacheBlobWrites(path.join(dir, 'zot.jsonl'), cachePatterns);
    expect(blobsLeft).toBeLessThan(countCacheBlobWrites(path.join(sample, 'zot.jsonl'), cachePatterns));
    expect(model.summary.registry.cache.blobsWritten).toBe(blobsLeft);
  });

  it('sccache.log cut to half: sccache partial', async () => {
    const dir = copySample();
    cutToHalf(path.join(dir, 'sccache.log'));
    const { left, recorded, missing } = shortfallOf(dir, 'sccache.log');
    const model = await modelOf(dir);
    expect(loudOf(model).map((w) => w.message)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^sccache\\.log: ${left} of the ${recorded} bytes run\\.json recorded .*\\(${missing} bytes missing`,
        ),
      ),
    );
    expect(model.summary.sccache.partial).toEqual(['sccache.log']);
    const hitsLeft = countSccacheHits(path.join(dir, 'sccache.log'), sccachePrefix);
    expect(hitsLeft).toBeLessThan(countSccacheHits(path.join(sample, 'sccache.log'), sccachePrefix));
    expect(model.summary.sccache.total.hits).toBe(hitsLeft);
  });

  it('a garbage line in zot.jsonl: more bytes than recorded, and a line no Zot log holds', async () => {
    const dir = copySample();
    const garbage = 'this is not json at all';
    insertLine(path.join(dir, 'zot.jsonl'), 99, garbage);
    const recorded = recordedSliceBytes(dir, 'zot.jsonl');
    const added = Buffer.byteLength(`${garbage}\n`);
    expect(statSync(path.join(dir, 'zot.jsonl')).size).toBe(recorded + added);
    const messages = loudOf(await modelOf(dir)).map((w) => w.message);
    expect(messages).toEqual([
      digestFindingOf(dir, 'zot.jsonl'),
      expect.stringMatching(
        new RegExp(
          `^zot\\.jsonl: ${withCommas(recorded + added)} bytes, but run\\.json recorded ${withCommas(recorded)} bytes .*\\(${added} bytes more`,
        ),
      ),
      expect.stringMatching(/^zot\.jsonl: 1 line skipped as "not JSON", which this log format never writes/),
    ]);
  });

  it('a broken line in sccache.log: rejected, with its line number', async () => {
    const dir = copySample();
    insertLine(path.join(dir, 'sccache.log'), 49, '{"broken": ');
    const messages = loudOf(await modelOf(dir)).map((w) => w.message);
    expect(messages).toContainEqual(
      expect.stringMatching(/^sccache\.log: 1 line rejected \(line 50: truncated JSON line/),
    );
  });

  it('one bad line in artifacts.txt costs only itself: the other 12 are kept', async () => {
    const dir = copySample();
    const file = path.join(dir, 'artifacts.txt');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('image\trocm/deepspeed-wheel', 'image rocm/deepspeed-wheel'),
    );
    const model = await modelOf(dir);
    expect(model.run.artifacts).toHaveLength(12);
    expect(loudOf(model).map((w) => w.message)).toEqual([
      digestFindingOf(dir, 'artifacts.txt'),
      expect.stringMatching(
        /^artifacts\.txt: 1 line rejected \(line 5: not an artifact line: "image rocm\/deepspeed-wheel:gfx1201"/,
      ),
    ]);
  });

  it('samples.jsonl cut to half: the cut line and every node short of lines over the makespan; nodes partial', async () => {
    const dir = copySample();
    cutToHalf(path.join(dir, 'samples.jsonl'));
    const model = await modelOf(dir);
    const messages = loudOf(model).map((w) => w.message);
    expect(messages).toContainEqual(expect.stringMatching(/^samples\.jsonl: the last line is cut off/));
    // Each node's hole runs from its last whole line left to the end of the measured window (the traces' last span,
    // on the workstation's clock); about one sample per run.json interval is missing over it.
    const [originMs, endMs] = measuredWindowMs(dir);
    const intervalMs = run.samples!.intervalMs;
    const kept = sampleTimesByNode(path.join(dir, 'samples.jsonl'));
    const intact = sampleTimesByNode(path.join(sample, 'samples.jsonl'));
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const holes = run.nodes.map(({ name }) => {
      const lastMs = Math.max(...(kept.get(name) ?? []).filter((t) => t < endMs));
      // The cut took lines of every node: more than 3 intervals of them each (a shorter stretch is not a hole).
      expect(endMs - lastMs).toBeGreaterThan(3 * intervalMs);
      expect(intact.get(name)?.length ?? 0).toBeGreaterThan(kept.get(name)?.length ?? 0);
      return `${name} ${s(endMs - lastMs)} (+${s(lastMs - originMs)} → +${s(endMs - originMs)}; about ${Math.round((endMs - lastMs) / intervalMs)} samples)`;
    });
    expect(messages).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${escapeRegExp(`samples.jsonl: no line at all over part of the ${s(endMs - originMs)} makespan for ${run.nodes.length} of ${run.nodes.length} nodes: ${holes.join('; ')}. `)}`,
        ),
      ),
    );
    expect(model.summary.nodes.map((n) => n.partial)).toEqual(
      model.summary.nodes.map(() => ['samples.jsonl']),
    );
  });

  it('a trace that is not JSON: its target, its node and the makespan are partial', async () => {
    const dir = copySample();
    writeFileSync(path.join(dir, 'trace-pytorch.json'), 'garbage, not a trace\n');
    const model = await modelOf(dir);
    expect(loudOf(model).map((w) => w.message)).toContainEqual(
      'trace-pytorch.json:1: not a trace: expected JSON, got "garbage, not a trace"',
    );
    expect(model.summary.targets.find((t) => t.target === 'pytorch')?.partial).toEqual([
      'trace-pytorch.json',
    ]);
    expect(model.summary.nodes.find((n) => n.node === 'strix')?.partial).toEqual(['trace-pytorch.json']);
    expect(model.summary.partial).toEqual(['trace-pytorch.json']);
  });

  it.each([['sccache.log'], ['trace-pytorch.json']])(
    'an unreadable %s is a warning naming it, not a failed report',
    async (name) => {
      const dir = copySample();
      const file = path.join(dir, name);
      rmSync(file);
      mkdirSync(file);
      expect(statSync(file).isDirectory()).toBe(true);
      const model = await modelOf(dir);
      expect(loudOf(model).map((w) => w.message)).toContainEqual(
        `${name}: cannot be read (refused: a directory; ${REFUSED_TAIL}); every figure from it is missing`,
      );
      expect(model.summary.streams[name]).toMatchObject({ present: true, bytes: 0 });
    },
  );

  // Confinement (docs/trust.md): a file that leads out of the run dir is never read, whatever it holds.
  it.each([
    ['artifacts.txt', 'a symbolic link', (file: string, secret: string) => symlinkSync(secret, file)],
    ['zot.jsonl', 'a symbolic link', (file: string, secret: string) => symlinkSync(secret, file)],
    ['trace-pytorch.json', 'a symbolic link', (file: string, secret: string) => symlinkSync(secret, file)],
    [
      'sccache.log',
      'a hard link (2 names for one file; another may be outside the run dir)',
      (file: string, secret: string) => linkSync(secret, file),
    ],
    ['samples.jsonl', 'a FIFO (named pipe)', (file: string) => execFileSync('mkfifo', [file])],
  ])('%s as %s: refused and named, its bytes never read', async (name, reason, make) => {
    const dir = copySample();
    const secret = path.join(mkdtempSync(path.join(temp, 'secret-')), 'passwd');
    writeFileSync(secret, 'SECRET-root:x:0:0:hunter2\n');
    const file = path.join(dir, name);
    rmSync(file);
    make(file, secret);
    const model = await modelOf(dir);
    expect(loudOf(model).map((w) => w.message)).toContainEqual(
      `${name}: cannot be read (refused: ${reason}; ${REFUSED_TAIL}); every figure from it is missing`,
    );
    expect(JSON.stringify(model)).not.toContain('SECRET');
    expect(model.summary.streams[name]).toMatchObject({ present: true, bytes: 0 });
  });

  it('zot.jsonl gone while run.json recorded its slice: loud, not a note', async () => {
    const dir = copySample();
    rmSync(path.join(dir, 'zot.jsonl'));
    const model = await modelOf(dir);
    expect(loudOf(model).map((w) => w.message)).toEqual([
      digestFindingOf(dir, 'zot.jsonl'),
      expect.stringMatching(
        new RegExp(
          `^zot\\.jsonl: absent, but run\\.json recorded a ${withCommas(recordedSliceBytes(dir, 'zot.jsonl'))}-byte slice of `,
        ),
      ),
    ]);
    expect(model.summary.registry.partial).toEqual(['zot.jsonl']);
  });
});
