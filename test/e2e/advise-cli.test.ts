import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdviceSchema, DataFileSchema } from '../../src/artifacts/index.js';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

// `rocm-perf advise` and the report's Advice section as users run them: the built CLI on a lane of three warm
// runs made from the recorded warm sample (fixtures/runs/gfx1201-warm, a real box run). Between them, on purpose:
// pytorch's build arg BOX_UNITS takes a new value in each run, and the rocm-base tag resolves to a new digest in
// the newest run (every meta-<target>.json names it). The sample itself double-pushes its layers (real trace).

const sample = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');
/** pytorch's provenance in the sample as recorded: its BOX_UNITS arg and the rocm-base digest it was built on. */
const recorded = (
  JSON.parse(readFileSync(path.join(sample, 'meta-pytorch.json'), 'utf8')) as {
    pytorch: {
      'buildx.build.provenance': {
        invocation: { parameters: { args: Record<string, string> } };
        materials: { uri: string; digest: { sha256: string } }[];
      };
    };
  }
).pytorch['buildx.build.provenance'];
const UNITS = Number(recorded.invocation.parameters.args['build-arg:BOX_UNITS']);
const baseMaterial = recorded.materials.find((material) => material.uri.includes('/rocm/rocm-base@'))!;
const OLD_BASE = baseMaterial.digest.sha256;
const REGISTRY = decodeURIComponent(/^pkg:docker\/([^/]+)\//.exec(baseMaterial.uri)![1]!);
const NEW_BASE = 'ab'.repeat(32);
const HOUR = 3_600_000;
let temp: TempDir;

/** run.json's digest entry for a file the copy edited, as the harness would have recorded the edited file. */
async function recordDigest(dir: string, runFile: { files?: Record<string, unknown> }, name: string) {
  const bytes = await readFile(path.join(dir, name));
  if (runFile.files?.[name] !== undefined)
    runFile.files[name] = {
      ...(runFile.files[name] as object),
      sizeBytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
}

async function makeRun(
  name: string,
  { units, base, hoursBefore }: { units: number; base: string; hoursBefore: number },
) {
  const dir = path.join(temp.path, name);
  await cp(sample, dir, { recursive: true });
  const runFile = JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as Record<string, number> & {
    files?: Record<string, unknown>;
  };
  for (const key of ['startedAtMs', 'measuredStartedAtMs', 'finishedAtMs'])
    runFile[key]! -= hoursBefore * HOUR;
  for (const file of (await readdir(dir)).filter((n) => /^meta-.+\.json$/.test(n))) {
    let text = (await readFile(path.join(dir, file), 'utf8')).replaceAll(OLD_BASE, base);
    if (file === 'meta-pytorch.json')
      text = text.replaceAll(`"build-arg:BOX_UNITS": "${UNITS}"`, `"build-arg:BOX_UNITS": "${units}"`);
    await writeFile(path.join(dir, file), text);
    await recordDigest(dir, runFile, file);
  }
  await writeFile(path.join(dir, 'run.json'), JSON.stringify(runFile));
  return dir;
}

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('advise-e2e');
  await makeRun('r1', { units: UNITS - 2, base: OLD_BASE, hoursBefore: 2 });
  await makeRun('r2', { units: UNITS - 1, base: OLD_BASE, hoursBefore: 1 });
  await makeRun('r3', { units: UNITS, base: NEW_BASE, hoursBefore: 0 });
});

afterAll(() => temp?.remove());

describe('rocm-perf advise', () => {
  it('names the arg that changes every run, the moving tag and the double push, ranked, each with its evidence', async () => {
    const result = await runBuiltCli(['advise', 'r3', '--json'], { root: temp.path });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const { run, advice } = JSON.parse(result.stdout) as { run: string; advice: unknown[] };
    expect(run).toBe('r3');
    const parsed = advice.map((entry) => AdviceSchema.parse(entry));
    // The sample's own apex-wheel export outlasts its build on kiln (real trace): link-bound-export in every copy.
    expect(parsed.map((entry) => entry.kind).sort()).toEqual([
      'double-cache-push',
      'link-bound-export',
      'moving-tag',
      'volatile-input',
    ]);
    const volatile = parsed.find((entry) => entry.kind === 'volatile-input')!;
    expect(volatile.targets).toEqual(['pytorch']);
    expect(volatile.evidence[0]).toContain(
      `BOX_UNITS = \`${UNITS}\`, \`${UNITS - 1}\`, \`${UNITS - 2}\`, a new value in each`,
    );
    const moving = parsed.find((entry) => entry.kind === 'moving-tag')!;
    expect(moving.action).toContain(`(${REGISTRY}/rocm/rocm-base@sha256:${NEW_BASE})`);
    expect(moving.evidence[0]).toContain('resolved to 2 digests over 3 runs');
    for (const entry of parsed) expect(entry.savingSeconds).not.toBeNull();
    const savings = parsed.map((entry) => entry.savingSeconds!);
    expect(savings).toEqual([...savings].sort((a, b) => b - a));
  });

  it('--runs 2 compares two runs only: an arg that changed once is not "every run"', async () => {
    const result = await runBuiltCli(['advise', 'r3', '--runs', '2', '--json'], { root: temp.path });
    const { advice } = JSON.parse(result.stdout) as { advice: { kind: string }[] };
    expect(advice.map((entry) => entry.kind).sort()).toEqual([
      'double-cache-push',
      'link-bound-export',
      'moving-tag',
    ]);
  });

  it('prints markdown without --json, and the oldest run of the lane has no history to compare', async () => {
    const result = await runBuiltCli(['advise', 'r1'], { root: temp.path });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(
      /^# Advice for r1\n\n1\. \*\*double-cache-push\*\* \(saves [0-9.]+s of makespan\): Push the image layers once/,
    );
    expect(result.stdout).not.toContain('moving-tag');
  });

  it('report writes the same advice into data.json and an Advice section into report.md', async () => {
    const report = await runBuiltCli(['report', 'r3'], { root: temp.path });
    expect(report.exitCode).toBe(0);
    const data = DataFileSchema.parse(
      JSON.parse(await readFile(path.join(temp.path, 'r3', 'data.json'), 'utf8')),
    );
    const advise = await runBuiltCli(['advise', 'r3', '--json'], { root: temp.path });
    expect(data.summary.advice).toEqual((JSON.parse(advise.stdout) as { advice: unknown }).advice);
    const md = await readFile(path.join(temp.path, 'r3', 'report.md'), 'utf8');
    expect(md).toContain('## Advice (warm; `rocm-perf advise`, docs/advise.md)');
    expect(md).toContain('**volatile-input**');
    const html = await readFile(path.join(temp.path, 'r3', 'index.html'), 'utf8');
    expect(html).toContain('<ol class="advice">');
  });

  it('a RUN that is not a run dir: exit 2, an error line and a hint', async () => {
    const result = await runBuiltCli(['advise', 'no-such-run'], { root: temp.path });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: no-such-run: no such run dir (looked in the current directory and under ${temp.path})`,
    );
    expect(result.stderr).toContain('hint: ');
  });
});
