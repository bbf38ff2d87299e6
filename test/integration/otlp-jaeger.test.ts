import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findToolBinary, pinnedVersion } from '../fleet/real/tools.js';
import {
  createTempDir,
  findFreePort,
  startDaemon,
  type DaemonProcess,
  type TempDir,
} from '../helpers/daemons/index.js';
import { createPortProbe } from '../helpers/daemons/process.js';
import { assertCliBuilt, repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

// `export --otlp` against a real Jaeger (v1.75.0, the pinned `otlp` tool of test/tools/versions.txt, built by
// test/tools/build-tools.sh): Jaeger v2 is an OpenTelemetry Collector, started on loopback with a throwaway config
// (the otlp receiver's HTTP endpoint, memory storage, jaeger_query). The sample warm run (fixtures/runs/gfx1201-warm,
// copied) is exported with the built CLI and read back through Jaeger's query API (/api/traces/<id>); every span
// is checked against the run's data.json and trace files as this file reads them (JSON.parse, its own arithmetic),
// never through rocm-perf's model or builder. The collector's faults Jaeger cannot be made to produce (a partial
// success) come from a small node:http server.

const FIXTURE = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');

interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: 'CHILD_OF' | 'FOLLOWS_FROM'; traceID: string; spanID: string }[];
  startTime: number;
  duration: number;
  tags: { key: string; value: unknown }[];
  processID: string;
}
interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags: { key: string; value: unknown }[] }>;
}

/** The parts of data.json this test reads, typed here (not rocm-perf's schema). */
interface DataJson {
  run: {
    stamp: string;
    lane: string;
    harness: string;
    arch: string;
    startedAtMs: number;
    finishedAtMs: number;
  };
  summary: {
    makespanSeconds: number;
    plannedMakespanSeconds: number;
    lowerBoundSeconds: number;
    targets: { target: string; node: string; status: string; startMs: number; endMs: number }[];
    nodes: { node: string; builder: string }[];
  };
  timeline: {
    bands: { target: string; phase: string; startMs: number; endMs: number; commands: string[] }[];
  };
}

let temp: TempDir;
let jaeger: DaemonProcess | undefined;
let otlpUrl = '';
let queryUrl = '';
const runsRoot = () => path.join(temp.path, 'runs');

function writeJaegerConfig(ports: { otlp: number; http: number; grpc: number }): string {
  return [
    'service:',
    '  extensions: [jaeger_storage, jaeger_query]',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    '      exporters: [jaeger_storage_exporter]',
    '  telemetry:',
    '    metrics:',
    '      level: none',
    '    logs:',
    '      level: info',
    'extensions:',
    '  jaeger_query:',
    '    storage:',
    '      traces: memstore',
    '    http:',
    `      endpoint: 127.0.0.1:${ports.http}`,
    '    grpc:',
    `      endpoint: 127.0.0.1:${ports.grpc}`,
    '  jaeger_storage:',
    '    backends:',
    '      memstore:',
    '        memory:',
    '          max_traces: 1000',
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      http:',
    `        endpoint: 127.0.0.1:${ports.otlp}`,
    'exporters:',
    '  jaeger_storage_exporter:',
    '    trace_storage: memstore',
    '',
  ].join('\n');
}

async function startJaeger(): Promise<void> {
  const binary = findToolBinary('jaeger', pinnedVersion('jaeger', 'otlp'), 'jaeger');
  const ports = { otlp: await findFreePort(), http: await findFreePort(), grpc: await findFreePort() };
  const config = path.join(temp.path, 'jaeger.yaml');
  await writeFile(config, writeJaegerConfig(ports));
  const otlpReady = createPortProbe({ port: ports.otlp });
  const queryReady = createPortProbe({ port: ports.http });
  jaeger = await startDaemon({
    name: 'jaeger',
    command: binary,
    args: ['--config', config],
    logPath: path.join(temp.path, 'jaeger.log'),
    isReady: async (pid) => (await otlpReady(pid)) && (await queryReady(pid)),
  });
  otlpUrl = `http://127.0.0.1:${ports.otlp}`;
  queryUrl = `http://127.0.0.1:${ports.http}`;
}

async function fetchJaegerTrace(traceId: string): Promise<JaegerTrace | undefined> {
  const response = await request(`${queryUrl}/api/traces/${traceId}`);
  const body = (await response.body.json()) as { data: JaegerTrace[] | null };
  return response.statusCode === 200 ? body.data?.[0] : undefined;
}

/** The trace id docs/otlp.md promises: SHA-256 of `rocm-perf otlp v1␀<lane>␀<stamp>`, first 16 bytes. */
function expectedTraceId(lane: string, stamp: string): string {
  return createHash('sha256').update(`rocm-perf otlp v1\0${lane}\0${stamp}`).digest('hex').slice(0, 32);
}

const micros = (ms: number) => Math.round(ms * 1000);
const tag = (span: { tags: { key: string; value: unknown }[] }, key: string) =>
  span.tags.find((t) => t.key === key)?.value;
const parentOf = (span: JaegerSpan) => span.references.find((r) => r.refType === 'CHILD_OF')?.spanID;
/** A band's command line back to the step it names: `RUN make (2.07s)` → `RUN make`. */
const stepOfCommand = (line: string) => line.replace(/ \([^()]*\)$/, '');

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('otlp-jaeger');
  await cp(FIXTURE, path.join(runsRoot(), 'gfx1201-warm'), { recursive: true });
  await startJaeger();
}, 60_000);

afterAll(async () => {
  try {
    await jaeger?.stop();
  } finally {
    temp?.remove();
  }
});

describe('export --otlp to a real Jaeger, read back through its query API', () => {
  let data: DataJson;
  let trace: JaegerTrace;
  let stdout = '';
  const byId = () => new Map(trace.spans.map((s) => [s.spanID, s]));

  beforeAll(async () => {
    data = JSON.parse(await readFile(path.join(FIXTURE, 'data.json'), 'utf8')) as DataJson;
    const result = await runBuiltCli(['export', '--otlp', otlpUrl, 'gfx1201-warm'], { root: runsRoot() });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    stdout = result.stdout;
    const traceId = expectedTraceId(data.run.lane, data.run.stamp);
    const read = await fetchJaegerTrace(traceId);
    if (!read) throw new Error(`Jaeger has no trace ${traceId}; the CLI said: ${stdout}`);
    trace = read;
  }, 60_000);

  it('says where it sent what: the endpoint with /v1/traces appended, the trace id, spans and links', () => {
    const spans = 1 + data.summary.nodes.length + data.summary.targets.length + data.timeline.bands.length;
    const steps = data.timeline.bands.filter((b) => b.phase === 'steps').flatMap((b) => b.commands).length;
    expect(stdout).toBe(
      `${otlpUrl}/v1/traces: sent trace ${expectedTraceId(data.run.lane, data.run.stamp)}: ${spans + steps} spans, ${data.summary.targets.length} links to BuildKit traces (warm run ${data.run.stamp})`,
    );
  });

  it('holds one span for the run, each node, target and phase band, and each step data.json lists', () => {
    const steps = data.timeline.bands.filter((b) => b.phase === 'steps').flatMap((b) => b.commands);
    expect(trace.spans).toHaveLength(
      1 + data.summary.nodes.length + data.summary.targets.length + data.timeline.bands.length + steps.length,
    );
    expect(new Set(trace.spans.map((s) => s.spanID)).size).toBe(trace.spans.length);
  });

  it('has one root, the run, over the run’s start and finish, with the plan and bound', () => {
    const roots = trace.spans.filter((s) => parentOf(s) === undefined);
    expect(roots.map((s) => s.operationName)).toEqual([
      `BUILD rocm-perf ${data.run.lane} ${data.run.harness}`,
    ]);
    const [root] = roots;
    expect(root!.startTime).toBe(micros(data.run.startedAtMs));
    expect(root!.duration).toBe(micros(data.run.finishedAtMs) - micros(data.run.startedAtMs));
    expect(tag(root!, 'cicd.pipeline.result')).toBe('success');
    expect(tag(root!, 'rocm_perf.makespan_seconds')).toBe(data.summary.makespanSeconds);
    expect(tag(root!, 'rocm_perf.planned.makespan_seconds')).toBe(data.summary.plannedMakespanSeconds);
    expect(tag(root!, 'rocm_perf.lower_bound_seconds')).toBe(data.summary.lowerBoundSeconds);
  });

  it('carries the semantic-convention resource and the rocm_perf. run attributes on its process', async () => {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    const processes = Object.values(trace.processes);
    expect(processes).toHaveLength(1);
    const [process] = processes;
    expect(process!.serviceName).toBe('rocm-perf');
    expect(Object.fromEntries(process!.tags.map((t) => [t.key, t.value]))).toEqual({
      'service.version': pkg.version,
      'cicd.pipeline.name': `rocm-perf ${data.run.lane} ${data.run.harness}`,
      'cicd.pipeline.run.id': data.run.stamp,
      'rocm_perf.lane': data.run.lane,
      'rocm_perf.harness': data.run.harness,
      'rocm_perf.arch': data.run.arch,
      'rocm_perf.stamp': data.run.stamp,
      'rocm_perf.namespace': 'rocm',
    });
  });

  it('puts a span per node under the run, from its first target start to its last target end', () => {
    const root = trace.spans.find((s) => parentOf(s) === undefined)!;
    for (const node of data.summary.nodes) {
      const mine = data.summary.targets.filter((t) => t.node === node.node);
      const spans = trace.spans.filter((s) => s.operationName === `node ${node.node}`);
      expect(spans, node.node).toHaveLength(1);
      const start = Math.min(...mine.map((t) => micros(t.startMs)));
      const end = Math.max(...mine.map((t) => micros(t.endMs)));
      expect([parentOf(spans[0]!), spans[0]!.startTime, spans[0]!.duration], node.node).toEqual([
        root.spanID,
        start,
        end - start,
      ]);
      expect(tag(spans[0]!, 'host.name')).toBe(node.node);
    }
  });

  it('puts each target under its node at data.json’s times, linked to its BuildKit trace', async () => {
    const spans = byId();
    for (const target of data.summary.targets) {
      const matches = trace.spans.filter((s) => s.operationName === target.target);
      expect(matches, target.target).toHaveLength(1);
      const span = matches[0]!;
      expect(spans.get(parentOf(span)!)?.operationName, target.target).toBe(`node ${target.node}`);
      expect([span.startTime, span.duration], target.target).toEqual([
        micros(target.startMs),
        micros(target.endMs) - micros(target.startMs),
      ]);
      expect(tag(span, 'rocm_perf.status')).toBe(target.status);
      // The other end of the link, read from the trace file here: its trace ID and the span whose parent it lacks.
      const file = JSON.parse(await readFile(path.join(FIXTURE, `trace-${target.target}.json`), 'utf8')) as {
        data: { traceID: string; spans: { spanID: string; references: { spanID: string }[] }[] }[];
      };
      const ids = new Set(file.data[0]!.spans.map((s) => s.spanID));
      const top = file.data[0]!.spans.filter((s) => !s.references.some((r) => ids.has(r.spanID)));
      expect(
        span.references.filter((r) => r.refType === 'FOLLOWS_FROM'),
        target.target,
      ).toEqual(
        top.map((s) => ({ refType: 'FOLLOWS_FROM', traceID: file.data[0]!.traceID, spanID: s.spanID })),
      );
    }
  });

  it('puts each phase band under its target, named and timed as data.json’s timeline', () => {
    const spans = byId();
    const phases = trace.spans.filter((s) => tag(s, 'rocm_perf.phase') !== undefined);
    const seen = phases
      .map((s) => [spans.get(parentOf(s)!)?.operationName, s.operationName, s.startTime, s.duration])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[2]) - Number(b[2]));
    const expected = data.timeline.bands
      .map((b) => [b.target, b.phase, micros(b.startMs), micros(b.endMs) - micros(b.startMs)])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[2]) - Number(b[2]));
    expect(seen).toEqual(expected);
  });

  it('puts each step under the steps band that lists it, inside that band, cached as the band says', () => {
    const spans = byId();
    const steps = trace.spans.filter((s) => tag(s, 'rocm_perf.step.cached') !== undefined);
    const seen = steps.map((s) => {
      const band = spans.get(parentOf(s)!)!;
      expect(s.startTime, s.operationName).toBeGreaterThanOrEqual(band.startTime);
      expect(s.startTime + s.duration, s.operationName).toBeLessThanOrEqual(band.startTime + band.duration);
      const target = spans.get(parentOf(band)!)!.operationName;
      return `${target} @${band.startTime}: ${s.operationName}${tag(s, 'rocm_perf.step.cached') ? ' (cached)' : ''}`;
    });
    const expected = data.timeline.bands
      .filter((b) => b.phase === 'steps')
      .flatMap((b) =>
        b.commands.map(
          (line) =>
            `${b.target} @${micros(b.startMs)}: ${stepOfCommand(line)}${line.endsWith(' (cached)') ? ' (cached)' : ''}`,
        ),
      );
    expect(seen.sort()).toEqual(expected.sort());
  });

  it('re-exports idempotently: the same ids, so Jaeger still holds one copy of each span', async () => {
    const again = await runBuiltCli(['export', '--otlp', `${otlpUrl}/v1/traces`, 'gfx1201-warm'], {
      root: runsRoot(),
    });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe(stdout);
    const read = await fetchJaegerTrace(trace.traceID);
    expect(read?.spans.map((s) => s.spanID).sort()).toEqual(trace.spans.map((s) => s.spanID).sort());
  });
});

describe('export --otlp: a failed target, a damaged run, and collectors that refuse', () => {
  it('marks a failed target and its run with error status', async () => {
    const dir = path.join(runsRoot(), 'failed');
    await cp(FIXTURE, dir, { recursive: true });
    const runFile = JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as {
      stamp: string;
      status: string;
      exitCode: number;
      targets: Record<string, { node: string; startedAtMs: number; finishedAtMs: number; buildRef: string }>;
    };
    const vllm = runFile.targets['vllm-wheel']!;
    runFile.targets['vllm-wheel'] = {
      ...vllm,
      status: 'failed',
      exitCode: 1,
      error: 'exit 1',
    } as typeof vllm;
    Object.assign(runFile, { status: 'failed', exitCode: 1, stamp: '20261206T060524Z-failed' });
    await writeFile(path.join(dir, 'run.json'), JSON.stringify(runFile));
    const result = await runBuiltCli(['export', '--otlp', otlpUrl, dir], { root: runsRoot() });
    expect(result.exitCode).toBe(0);
    const read = await fetchJaegerTrace(expectedTraceId('fleet', '20261206T060524Z-failed'));
    const errors = read!.spans.filter((s) => tag(s, 'error') === true).map((s) => s.operationName);
    expect(errors.sort()).toEqual(['BUILD rocm-perf fleet warm', 'vllm-wheel']);
    const vllmSpan = read!.spans.find((s) => s.operationName === 'vllm-wheel')!;
    expect(tag(vllmSpan, 'otel.status_code')).toBe('ERROR');
    expect(tag(vllmSpan, 'cicd.pipeline.task.run.result')).toBe('failure');
  });

  it('refuses a run whose trace file is damaged, exit 2, and sends nothing', async () => {
    const dir = path.join(runsRoot(), 'damaged');
    await cp(FIXTURE, dir, { recursive: true });
    const runFile = JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as { stamp: string };
    runFile.stamp = '20261206T060524Z-damaged';
    await writeFile(path.join(dir, 'run.json'), JSON.stringify(runFile));
    const [traceFile] = (await readdir(dir)).filter((name) => /^trace-.+\.json$/.test(name));
    await writeFile(path.join(dir, traceFile!), 'garbage, not a trace\n');
    const result = await runBuiltCli(['export', '--otlp', otlpUrl, dir], { root: runsRoot() });
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.split('\n');
    expect(lines).toContain(
      `WARNING: ${traceFile!}:1: not a trace: expected JSON, got "garbage, not a trace"`,
    );
    expect(lines.find((l) => l.startsWith('error: '))).toMatch(
      new RegExp(`^error: --otlp ${dir}: ${traceFile!.replace('.', '\\.')} failed the run's checks`),
    );
    expect(lines.at(-1)).toMatch(/^hint: .*--allow-partial/);
    expect(await fetchJaegerTrace(expectedTraceId('fleet', '20261206T060524Z-damaged'))).toBeUndefined();
    const sent = await runBuiltCli(['export', '--otlp', otlpUrl, '--allow-partial', dir], {
      root: runsRoot(),
    });
    expect(sent.exitCode).toBe(1);
    expect(sent.stderr).toMatch(/error: \d+ loud warning\(s\): export wrote its output/);
    const read = await fetchJaegerTrace(expectedTraceId('fleet', '20261206T060524Z-damaged'));
    const target = /^trace-(.+)\.json$/.exec(traceFile!)![1]!;
    const span = read!.spans.find((s) => s.operationName === target);
    expect(span?.references.filter((r) => r.refType === 'FOLLOWS_FROM')).toEqual([]);
  });

  it('names the URL and the answer when the collector has no such path (404)', async () => {
    const url = `${otlpUrl}/v1/metrics`;
    const result = await runBuiltCli(['export', '--otlp', url, 'gfx1201-warm'], { root: runsRoot() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')).toEqual([
      `error: ${url}: answered HTTP 404: 404 page not found`,
      `hint: nothing serves traces at this path: pass the collector's base URL (http://HOST:4318) so /v1/traces is appended, or the full path its OTLP/HTTP receiver serves`,
    ]);
  });

  it('says a 200 that is not an OTLP answer (Jaeger’s UI port) is not a collector', async () => {
    const result = await runBuiltCli(['export', '--otlp', queryUrl, 'gfx1201-warm'], { root: runsRoot() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: ${queryUrl}/v1/traces: answered HTTP 200 with <!(doctype|DOCTYPE) html>.*, not an OTLP response\\nhint: point --otlp at an OTLP/HTTP receiver`,
      ),
    );
  });

  it('says the connection was refused, with the URL and a hint, no stack', async () => {
    const port = await findFreePort();
    const result = await runBuiltCli(['export', '--otlp', `http://127.0.0.1:${port}`, 'gfx1201-warm'], {
      root: runsRoot(),
    });
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^error: http://127\\.0\\.0\\.1:${port}/v1/traces: could not send the trace: ECONNREFUSED`),
    );
    expect(lines[1]).toMatch(/^hint: start the collector/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('fails on a partial success, naming how many spans the collector rejected and why', async () => {
    let received: { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] } | undefined;
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof received;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"partialSuccess":{"rejectedSpans":"3","errorMessage":"span name too long"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/otlp/v1/traces`;
      const result = await runBuiltCli(['export', '--otlp', url, 'gfx1201-warm'], { root: runsRoot() });
      const spans = received!.resourceSpans[0]!.scopeSpans[0]!.spans.length;
      expect(result.exitCode).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(
        `error: ${url}: accepted the trace but rejected 3 of its ${spans} spans: span name too long`,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
