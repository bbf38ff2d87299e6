import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { DataFile } from '../../../src/artifacts/index.js';
import { buildReportModel, readRunInputs } from '../../../src/report/index.js';

// The shipped sample run (fixtures/runs/gfx1201-warm, recorded on the fleet in a box, with run.json's slice sizes),
// damaged the ways issue 28 found them passing silently: each damage is a loud warning naming the file and what is
// missing, and the figures drawn from the file are marked partial in data.json.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sample = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');
const temp = mkdtempSync(path.join(tmpdir(), 'damaged-run-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

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
  return buildReportModel(await readRunInputs({ dir, generatedAtMs: 0 }));
}

const loudOf = (model: DataFile) => model.summary.warnings.filter((w) => w.level === 'loud');

describe('the shipped warm sample run, damaged', () => {
  it('intact: no loud warning and nothing partial', async () => {
    const model = await modelOf(copySample());
    expect(loudOf(model)).toEqual([]);
    expect(model.summary.registry.partial).toEqual([]);
    expect(model.summary.sccache.partial).toEqual([]);
    expect(model.summary.nodes.flatMap((n) => n.partial)).toEqual([]);
    expect(model.summary.registry.cache.blobsWritten).toBe(104);
  });

  it('zot.jsonl cut to half: the shortfall against run.json and the cut last line; registry partial', async () => {
    const dir = copySample();
    cutToHalf(path.join(dir, 'zot.jsonl'));
    const model = await modelOf(dir);
    expect(loudOf(model).map((w) => w.message)).toEqual([
      'zot.jsonl: 226,446 of the 452,893 bytes run.json recorded for this slice (226,447 bytes missing: the file was cut short after the run); its figures count only what is left',
      'zot.jsonl: the last line is cut off (no newline, and what is there does not parse): the file was truncated; its figures miss at least that line',
    ]);
    expect(model.summary.registry.partial).toEqual(['zot.jsonl']);
    expect(model.summary.sccache.partial).toEqual([]);
    expect(model.summary.registry.cache.blobsWritten).toBe(48);
  });

  it('sccache.log cut to half: sccache partial', async () => {
    const dir = copySample();
    cutToHalf(path.join(dir, 'sccache.log'));
    const model = await modelOf(dir);
    expect(loudOf(model).map((w) => w.message)).toContainEqual(
      expect.stringMatching(
        /^sccache\.log: 42,615 of the 85,230 bytes run\.json recorded .*42,615 bytes missing/,
      ),
    );
    expect(model.summary.sccache.partial).toEqual(['sccache.log']);
    expect(model.summary.sccache.total.hits).toBe(101);
  });

  it('a garbage line in zot.jsonl: more bytes than recorded, and a line no Zot log holds', async () => {
    const dir = copySample();
    insertLine(path.join(dir, 'zot.jsonl'), 99, 'this is not json at all');
    const messages = loudOf(await modelOf(dir)).map((w) => w.message);
    expect(messages).toEqual([
      expect.stringMatching(
        /^zot\.jsonl: 452,917 bytes, but run\.json recorded 452,893 bytes .*24 bytes more/,
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
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^samples\.jsonl: no line at all over part of the 16\.3 s makespan for 5 of 5 nodes: strix 8\.2 s \(\+8\.0 s → \+16\.3 s/,
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
        `${name}: cannot be read (a directory or special file, not a regular file); every figure from it is missing`,
      );
      expect(model.summary.streams[name]).toMatchObject({ present: true, bytes: 0 });
    },
  );

  it('zot.jsonl gone while run.json recorded its slice: loud, not a note', async () => {
    const dir = copySample();
    rmSync(path.join(dir, 'zot.jsonl'));
    const model = await modelOf(dir);
    expect(loudOf(model).map((w) => w.message)).toEqual([
      expect.stringMatching(/^zot\.jsonl: absent, but run\.json recorded a 452,893-byte slice of /),
    ]);
    expect(model.summary.registry.partial).toEqual(['zot.jsonl']);
  });
});
