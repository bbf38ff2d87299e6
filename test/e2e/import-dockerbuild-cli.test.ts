// `rocm-perf import --lane ci FILE.dockerbuild` as users run it, on the real record buildx v0.36.1 exported on the
// fleet in a box (test/fixtures/dockerbuild/README.md): the run it becomes, its data.json checked against the
// records' own figures (read here with GNU tar and JSON.parse, not the product's reader), what a record cannot hold
// said on report.md and the page, and forged or broken files refused with one error line, exit 2, nothing imported.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataFile } from '../../src/artifacts/index.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, runBuiltCli } from '../helpers/run-built-cli.js';

const fixture = path.resolve(import.meta.dirname, '../fixtures/dockerbuild/several-records.dockerbuild');
let temp: TempDir;
let root: string;

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('import-dockerbuild-e2e');
  root = path.join(temp.path, 'runs');
  mkdirSync(root);
});
afterAll(() => temp.remove());

const cli = (args: string[]) => runBuiltCli(args, { root });

interface RecordByHand {
  Ref: string;
  localState: { Target: string };
  CreatedAt: { seconds: number; nanos: number };
  CompletedAt: { seconds: number; nanos: number };
  numCachedSteps: number;
  numTotalSteps: number;
}

/** The fixture unpacked by GNU tar into a fresh dir; its records by following index.json with JSON.parse. */
function unpack(file = fixture): { dir: string; records: RecordByHand[]; blobs: Map<string, string> } {
  const dir = mkdtempSync(path.join(temp.path, 'unpacked-'));
  execFileSync('tar', ['-xzf', file, '-C', dir]);
  const read = (digest: string) => readFileSync(path.join(dir, 'blobs/sha256', digest.slice(7)), 'utf8');
  type Index = { manifests: { mediaType: string; digest: string }[] };
  const top = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as Index;
  const inner = JSON.parse(read(top.manifests[0]!.digest)) as Index;
  const blobs = new Map<string, string>();
  const records = inner.manifests.map((m) => {
    const manifest = JSON.parse(read(m.digest)) as {
      config: { digest: string };
      layers: { mediaType: string; digest: string }[];
    };
    const record = JSON.parse(read(manifest.config.digest)) as RecordByHand;
    const trace = manifest.layers.find((l) => l.mediaType === 'application/vnd.buildkit.otlp.json.v0');
    blobs.set(record.localState.Target, trace!.digest);
    return record;
  });
  return { dir, records, blobs };
}

/** Packs a dir back into a .dockerbuild (gzip tar of its top level, as buildx lays it out). */
function pack(dir: string, name: string, extra: string[] = []): string {
  const file = path.join(temp.path, name);
  execFileSync('tar', ['-czf', file, '-C', dir, ...extra, 'oci-layout', 'index.json', 'blobs']);
  return file;
}

const seconds = (t: { seconds: number; nanos: number }) => t.seconds + t.nanos / 1e9;
const runsUnder = (dir: string) => readdirSync(dir).filter((name) => !name.startsWith('.'));

describe('rocm-perf import of a .dockerbuild', () => {
  it('makes the records one run of lane ci (no --lane needed) whose data.json carries the records’ own figures', async () => {
    const { records } = unpack();
    const imported = await cli(['import', fixture]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    const match = /^imported run (\S+) as lane ci: (\S+)$/.exec(imported.stdout.trim());
    expect(match, imported.stdout).not.toBeNull();
    const dir = match![2]!;
    const data = JSON.parse(readFileSync(path.join(dir, 'data.json'), 'utf8')) as DataFile;
    expect(data.run.lane).toBe('ci');
    expect(data.run.harness).toBe('warm');
    expect(data.summary.targets.map((t) => t.target).sort()).toEqual(
      records.map((r) => r.localState.Target).sort(),
    );
    for (const record of records) {
      const target = data.summary.targets.find((t) => t.target === record.localState.Target)!;
      expect([target.cachedSteps, target.totalSteps], target.target).toEqual([
        record.numCachedSteps,
        record.numTotalSteps,
      ]);
      // The record's window (CreatedAt → CompletedAt) is the target's total, to the trace's span precision.
      const window = seconds(record.CompletedAt) - seconds(record.CreatedAt);
      expect(Math.abs((target.totalSeconds ?? 0) - window), target.target).toBeLessThan(0.002);
      expect(target.buildSeconds ?? 0).toBeGreaterThan(0);
      expect(target.buildSeconds ?? Infinity).toBeLessThanOrEqual(target.totalSeconds ?? 0);
    }
    const first = Math.min(...records.map((r) => seconds(r.CreatedAt)));
    const last = Math.max(...records.map((r) => seconds(r.CompletedAt)));
    expect(Math.abs((data.summary.makespanSeconds ?? 0) - (last - first))).toBeLessThan(0.002);
    // No loud warning: the run is whole, as far as a record goes.
    expect(data.summary.warnings.filter((w) => w.level === 'loud')).toEqual([]);
  });

  it('says on report.md and the page what a record cannot hold, never a 0', () => {
    const [stamp] = runsUnder(root);
    const md = readFileSync(path.join(root, stamp!, 'report.md'), 'utf8');
    const page = readFileSync(path.join(root, stamp!, 'index.html'), 'utf8');
    for (const [file, what] of [
      ['sccache.log', 'sccache log'],
      ['zot.jsonl', 'registry log'],
      ['samples.jsonl', 'node samples'],
    ] as const) {
      const line = `${file}: not recorded in a .dockerbuild (a build record holds no ${what}); its figures are absent, not 0`;
      expect(md).toContain(line);
      expect(page).toContain(line);
    }
    // The usage panel of the chart says why it is empty (timeline.svg is the same chart the page draws).
    expect(readFileSync(path.join(root, stamp!, 'timeline.svg'), 'utf8')).toContain(
      'CPU busy and memory used, % of node: none drawn (samples.jsonl: not recorded in a .dockerbuild',
    );
    const sccache = md.slice(md.indexOf('## Compiler cache'), md.indexOf('## Registry writes'));
    expect(sccache).not.toMatch(/\| total \| 0 \|/);
    const registry = md.slice(md.indexOf('## Registry writes'), md.indexOf('## Critical path'));
    expect(registry).not.toMatch(/\| 0 B \|/);
    const nodes = md.slice(md.indexOf('## Nodes'), md.indexOf('## Compiler cache'));
    expect(nodes).toMatch(/\| ci \| ci \| 3 \|.*\| — \| — \| — \| — \|/);
    expect(nodes).not.toMatch(/0 MB\/s/);
    // A record holds the builder's clock alone: no "ahead of this workstation" note on an imported run.
    expect(md).not.toMatch(/its build records put its clock/);
  });

  it('explains a ci run’s misses against the ci run before it, as report does', async () => {
    const earlier = path.join(path.dirname(fixture), 'earlier-records.dockerbuild');
    const imported = await cli(['import', '--lane', 'ci', earlier]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    const earlierStamp = /^imported run (\S+)/.exec(imported.stdout)?.[1];
    const again = await cli(['import', '--lane', 'ci', '--force', fixture]);
    expect(again.stdout).toMatch(/^replaced run /);
    const dir = /: (\S+)$/.exec(again.stdout.trim())?.[1] ?? '';
    const data = JSON.parse(readFileSync(path.join(dir, 'data.json'), 'utf8')) as DataFile;
    expect(data.summary.why?.against).toBe(earlierStamp);
    // The box moved triton-wheel's source between the two builds (scripts/make-dockerbuild-fixture.ts).
    const triton = data.summary.targets.find((t) => t.target === 'triton-wheel');
    expect(triton?.why?.firstMiss?.name).toBe('[stage-0 2/4] COPY src/triton-wheel /src');
    expect(triton?.why?.rebuiltAfter).toEqual(['vllm-wheel']);
    const vllm = data.summary.targets.find((t) => t.target === 'vllm-wheel');
    expect(vllm?.why?.cause).toEqual({ kind: 'dependency-rebuilt', targets: ['triton-wheel'] });
    const pytorch = data.summary.targets.find((t) => t.target === 'pytorch');
    expect(pytorch?.why?.firstMiss ?? null).toBeNull();
  });

  it('refuses a record archive holding a link, naming the member; nothing imported', async () => {
    const { dir } = unpack();
    symlinkSync('/etc/passwd', path.join(dir, 'blobs/sha256/passwd'));
    const forged = pack(dir, 'link.dockerbuild');
    const before = runsUnder(root);
    const result = await cli(['import', '--lane', 'ci', '--force', forged]);
    expect(result.exitCode).toBe(2);
    const [error, hint] = result.stderr.split('\n');
    expect(error).toBe(
      `error: ${forged}: 1 entry is not a regular file of the record archive: blobs/sha256/passwd (a symbolic link); nothing was imported`,
    );
    expect(hint).toMatch(/^hint: export the records again with `docker buildx history export/);
    expect(runsUnder(root)).toEqual(before);
  });

  it('refuses a member that climbs out of the archive', async () => {
    const { dir } = unpack();
    writeFileSync(path.join(temp.path, 'escape'), 'x');
    const forged = pack(dir, 'climb.dockerbuild', [
      '--transform',
      's,^escape$,../../escape,',
      '-C',
      temp.path,
      'escape',
      '-C',
      dir,
    ]);
    const result = await cli(['import', '--lane', 'ci', forged]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: ${forged}: 1 entry is not a regular file of the record archive: ../../escape (a path that climbs out of the archive (\`..\`)); nothing was imported`,
    );
  });

  it('refuses a trace whose bytes are not the blob its manifest names, naming the blob', async () => {
    const { dir, blobs } = unpack();
    const [target, digest] = [...blobs][0]!;
    const file = path.join(dir, 'blobs/sha256', digest.slice(7));
    const text = readFileSync(file, 'utf8');
    // Same size, one digit of a span's time changed: a forged figure the digest must catch.
    const at =
      text.search(/"StartTime": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d/) + '"StartTime": "2026-12-06T22:0'.length;
    writeFileSync(file, text.slice(0, at) + (text[at] === '1' ? '2' : '1') + text.slice(at + 1));
    const forged = pack(dir, 'forged-trace.dockerbuild');
    const result = await cli(['import', '--lane', 'ci', forged]);
    expect(result.exitCode, target).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(
      new RegExp(
        `^error: ${forged}: blobs/sha256/${digest.slice(7)}: its bytes hash to sha256:[0-9a-f]{64}, not the ${digest} its descriptor names; nothing was imported$`,
      ),
    );
  });

  it('refuses a cut file and a file that is not gzip, one line each', async () => {
    const cut = path.join(temp.path, 'cut.dockerbuild');
    const bytes = readFileSync(fixture);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const cutResult = await cli(['import', '--lane', 'ci', cut]);
    expect(cutResult.exitCode).toBe(2);
    expect(cutResult.stderr.split('\n')[0]).toMatch(
      new RegExp(`^error: ${cut}: damaged gzip \\(.+\\); nothing was imported$`),
    );
    const plain = path.join(temp.path, 'plain.dockerbuild');
    copyFileSync(path.join(import.meta.dirname, '../fixtures/dockerbuild/README.md'), plain);
    const plainResult = await cli(['import', '--lane', 'ci', plain]);
    expect(plainResult.stderr.split('\n')[0]).toBe(
      `error: ${plain}: not gzip (a .dockerbuild is a gzip-compressed tar); nothing was imported`,
    );
    expect(plainResult.stderr).not.toMatch(/\n\s+at /);
  });
});
