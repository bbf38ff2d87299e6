// A real CNCF Distribution v3.1.2 registry behind the fleet in a box's registry proxy (issue 35 items 8 and 9):
// one warm run on the box's real BuildKit pushes images and registry cache exports through the proxy into
// Distribution, the harness slices Distribution's own log (fleet.yaml `log_format: distribution`) and asks the
// registry for the sizes that log lacks (registry-sizes.json), and the report splits each trace's uploads into
// image and cache by run.json's uploadRefs. Then, per target, the bytes are compared three ways:
//   - the product: data.json's uploadBytes and the trace's image/cache split (the report's own reader);
//   - the registry's own log: each write (201) of the target's upload requests, sized from registry-sizes.json,
//     and the same blobs' sizes on the registry's disk (its filesystem storage, `blobs/sha256/…/data`);
//   - the proxy's record: the request body bytes it forwarded for those requests.
// Prints a markdown table (docs/collectors-logs.md keeps the last one), and each target's total against its build
// record (`docker buildx history inspect` Duration; docs/collectors-metrics-and-traces.md §2.2 keeps it). With --fixtures DIR it also copies what the
// unit tests need (traces, run.json, the log slice, registry-sizes.json, the proxy record, the disk sizes).
//
// Needs root and the box lock, and the registry built once (16 min on the shared 2-core machine):
//   PATH=/usr/local/go/bin:$PATH GOBIN=~/.cache/rocm-perf/tools/registry-v3.1.2 CGO_ENABLED=0 \
//     go install -trimpath -ldflags '-s -w' github.com/distribution/distribution/v3/cmd/registry@v3.1.2
//   npm run build && flock /tmp/rocm-perf-box.lock npx tsx scripts/compare-distribution-registry.ts [--fixtures DIR]
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { readRegistryTruth, startFleet, type RegistryTruthLine } from '../test/fleet/index.js';
import { readTraceFiles } from '../src/run-dir/read-trace-files.js';
import { readRunFile } from '../src/run-dir/read-run-file.js';
import { runBoxCli } from './run-box-cli.js';
import { openRunDir } from '../src/run-dir/open-run-dir.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
const registryBinary = path.join(
  process.env.ROCM_PERF_TOOLS ?? path.join(homedir(), '.cache/rocm-perf/tools'),
  'registry-v3.1.2/registry',
);
const fixturesFlag = process.argv.indexOf('--fixtures');
const fixturesDir = fixturesFlag === -1 ? undefined : path.resolve(process.argv[fixturesFlag + 1] ?? '');

if (!existsSync(registryBinary)) {
  console.error(`error: ${registryBinary} is missing`);
  console.error(
    `hint: PATH=/usr/local/go/bin:$PATH GOBIN=${path.dirname(registryBinary)} CGO_ENABLED=0 go install -trimpath -ldflags '-s -w' github.com/distribution/distribution/v3/cmd/registry@v3.1.2`,
  );
  process.exit(2);
}

/** The path (no scheme, host or query-less) a request URL names, as the proxy and the registry log write it. */
const toRequestPath = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** `digest → size` of every blob in Distribution's filesystem storage (`docker/registry/v2/blobs/sha256/xx/<hex>/data`). */
function readStoredBlobSizes(storageDir: string): Map<string, number> {
  const root = path.join(storageDir, 'docker/registry/v2/blobs/sha256');
  const sizes = new Map<string, number>();
  if (!existsSync(root)) return sizes;
  for (const prefix of readdirSync(root))
    for (const hex of readdirSync(path.join(root, prefix))) {
      const data = path.join(root, prefix, hex, 'data');
      if (existsSync(data)) sizes.set(`sha256:${hex}`, statSync(data).size);
    }
  return sizes;
}

/** `/v2/<repo>/blobs/uploads/<uuid>?…digest=sha256:…` or `/v2/<repo>/manifests/<ref>` → repository and reference. */
function toWrite(requestPath: string): { repository: string; reference: string } | undefined {
  const blob = /^\/v2\/(.+?)\/blobs\/uploads\/[^?]*\?(.*)$/.exec(requestPath);
  if (blob) {
    const digest = new URLSearchParams(blob[2]).get('digest');
    return digest ? { repository: blob[1]!, reference: digest } : undefined;
  }
  const manifest = /^\/v2\/(.+?)\/manifests\/([^?]+)$/.exec(requestPath);
  return manifest ? { repository: manifest[1]!, reference: decodeURIComponent(manifest[2]!) } : undefined;
}

const runsRoot = mkdtempSync(path.join(tmpdir(), 'rocm-perf-distribution-'));
const fleet = await startFleet({ distributionRegistry: registryBinary, failLayerPutEvery: 0 });
try {
  const stdout = await runBoxCli(fleet, ['warm', '--root', runsRoot, '--sample-interval-ms', '1000']);
  const runDir = stdout.trim().split('\n').at(-1) ?? '';
  const run = (await readRunFile(openRunDir(runDir)))!;
  const data = JSON.parse(readFileSync(path.join(runDir, 'data.json'), 'utf8')) as {
    summary: {
      targets: { target: string; uploadBytes: number | null }[];
      registry: {
        cache: { bytesWritten: number };
        image: { bytesWritten: number };
        writesWithoutSize: number;
      };
    };
  };
  const sizes = (
    JSON.parse(readFileSync(path.join(runDir, 'registry-sizes.json'), 'utf8')) as {
      sizes: Record<string, number>;
    }
  ).sizes;
  const { traces } = await readTraceFiles(openRunDir(runDir), { nowMs: Date.now() });
  const truth = readRegistryTruth(fleet.services.registryTruthPath);
  const stored = readStoredBlobSizes(path.join(path.dirname(fleet.services.registryLogPath), 'data'));
  const logText = readFileSync(path.join(runDir, 'zot.jsonl'), 'utf8');
  const logged201 = new Set(
    logText
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['http.response.status'] === 201)
      .map((entry) => `${String(entry['http.request.method'])} ${String(entry['http.request.uri'])}`),
  );
  const rows: string[] = [];
  const totals = { product: 0, log: 0, disk: 0, proxy: 0, cache: 0, image: 0, unknown: 0 };
  for (const trace of traces.sort((a, b) => a.target.localeCompare(b.target))) {
    const byKind = { cache: 0, image: 0, unknown: 0 };
    for (const upload of trace.uploads) byKind[upload.kind] += upload.bytes ?? 0;
    const paths = new Set(trace.uploads.map((upload) => `${upload.method} ${toRequestPath(upload.url)}`));
    const proxy = truth
      .filter((line: RegistryTruthLine) => paths.has(`${line.method} ${line.path}`))
      .reduce((sum, line) => sum + line.requestBytes, 0);
    let log = 0;
    let disk = 0;
    for (const key of paths) {
      if (!logged201.has(key)) continue;
      const write = toWrite(key.slice(key.indexOf(' ') + 1));
      if (write === undefined) continue;
      log += sizes[`${write.repository}@${write.reference}`] ?? 0;
      disk += stored.get(write.reference) ?? sizes[`${write.repository}@${write.reference}`] ?? 0;
    }
    const product = data.summary.targets.find((t) => t.target === trace.target)?.uploadBytes ?? 0;
    for (const [key, value] of Object.entries({ product, log, disk, proxy, ...byKind }))
      totals[key as keyof typeof totals] += value;
    rows.push(
      `| ${trace.target} | ${product} | ${byKind.image} | ${byKind.cache} | ${byKind.unknown} | ${log} | ${disk} | ${proxy} |`,
    );
  }
  // Item 10: each target's total against its build record (`history inspect`), and the extent of every span.
  const recordRows: string[] = [];
  for (const trace of traces) {
    const outcome = run.targets[trace.target];
    const buildRef = outcome && 'buildRef' in outcome ? outcome.buildRef : undefined;
    if (buildRef === undefined) continue;
    const [builder = '', , id = ''] = buildRef.split('/');
    const inspect = await execa(
      'docker',
      ['buildx', 'history', 'inspect', '--builder', builder, '--format', 'json', id],
      { env: { ...fleet.env, HOME: process.env.HOME ?? '/root' }, extendEnv: false, reject: false },
    );
    if (inspect.exitCode !== 0) {
      recordRows.push(
        `| ${trace.target} | history inspect failed: ${String(inspect.stderr).split('\n').at(-1)} | | |`,
      );
      continue;
    }
    const duration = (JSON.parse(String(inspect.stdout)) as { Duration: number }).Duration / 1e9;
    const spans = (
      JSON.parse(readFileSync(path.join(runDir, `trace-${trace.target}.json`), 'utf8')) as {
        data: { spans: { startTime: number; duration: number }[] }[];
      }
    ).data.flatMap((one) => one.spans);
    const extent =
      (Math.max(...spans.map((span) => span.startTime + span.duration)) -
        Math.min(...spans.map((span) => span.startTime))) /
      1e6;
    recordRows.push(
      `| ${trace.target} | ${duration.toFixed(4)} | ${trace.totalSeconds.toFixed(4)} (${((trace.totalSeconds - duration) * 1000).toFixed(1)} ms) | ${extent.toFixed(4)} (+${((extent - duration) * 1000).toFixed(0)} ms) |`,
    );
  }
  console.log(
    [
      '| target | history inspect Duration s | total s (product) | extent of every span s (before issue 35) |',
      '|---|---|---|---|',
      ...recordRows,
      '',
    ].join('\n'),
  );
  console.log(
    [
      `Distribution ${registryBinary} behind the box proxy; run ${path.basename(runDir)} (warm, ${traces.length} targets)`,
      '',
      '| target | product bytes (data.json) | image (trace) | cache (trace) | unknown (trace) | registry log (201s, sizes by HEAD) | registry disk | proxy record |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      `| **all** | ${totals.product} | ${totals.image} | ${totals.cache} | ${totals.unknown} | ${totals.log} | ${totals.disk} | ${totals.proxy} |`,
      '',
      `data.json registry (the whole slice, by cache patterns): cache ${data.summary.registry.cache.bytesWritten} B, image ${data.summary.registry.image.bytesWritten} B, writes without a size ${data.summary.registry.writesWithoutSize}`,
    ].join('\n'),
  );
  if (fixturesDir !== undefined) {
    mkdirSync(fixturesDir, { recursive: true });
    for (const name of readdirSync(runDir).filter((file) =>
      /^(run\.json|zot\.jsonl|registry-sizes\.json|trace-.+\.json)$/.test(file),
    ))
      cpSync(path.join(runDir, name), path.join(fixturesDir, name));
    cpSync(fleet.services.registryTruthPath, path.join(fixturesDir, 'registry-truth.jsonl'));
    writeFileSync(
      path.join(fixturesDir, 'stored-blob-sizes.json'),
      `${JSON.stringify(Object.fromEntries([...stored].sort()), null, 2)}\n`,
    );
    console.log(`fixtures written to ${path.relative(repoRoot, fixturesDir)}`);
  }
} finally {
  await fleet.stop();
  rmSync(runsRoot, { recursive: true, force: true });
}
