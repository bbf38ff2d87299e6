// The fleet in a box itself: per-node network counters, shaped links, the docker double's flag discipline, and a
// full bake through the double leaving metadata, a trace, nginx lines and registry/Zot lines behind.
import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunId, toNetnsName } from '../fleet/fleet-names.js';
import {
  cleanupStaleFleets,
  findFleetBlocker,
  readCpuUsageNs,
  readFleetState,
  readRegistryTruth,
  startFleet,
  type FleetNodeHandle,
  type RunningFleet,
} from '../fleet/index.js';

const execFileAsync = promisify(execFile);
let fleet: RunningFleet | undefined;

beforeAll(async () => {
  const blocker = findFleetBlocker();
  if (blocker) throw new Error(blocker);
  // The double's own tests: its flag discipline and behaviour (the real engine's box: fleet-box-real.test.ts).
  fleet = await startFleet({ engine: 'double', scale: { timeScale: 1 / 1000 }, nodeSpeeds: { kiln: 0.5 } });
}, 90_000);

afterAll(async () => {
  await fleet?.stop();
});

function running(): RunningFleet {
  if (!fleet) throw new Error('the fleet did not start (see the beforeAll error)');
  return fleet;
}

async function readTxBytes(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const out = new Map<string, number>();
  for (const match of text.matchAll(/^node_network_transmit_bytes_total\{device="([^"]+)"\} (\S+)$/gm))
    out.set(match[1]!, Number(match[2]));
  return out;
}

/** PUTs `sizeBytes` to nginx from inside a node's namespace; returns the wall time in ms. */
async function uploadFrom(netns: string, url: string, sizeBytes: number): Promise<number> {
  const script = `const b=Buffer.alloc(${sizeBytes},7);const t=performance.now();const r=await fetch(${JSON.stringify(url)},{method:'PUT',body:b});if(r.status>=300)throw new Error('status '+r.status);console.log(performance.now()-t)`;
  const { stdout } = await execFileAsync('ip', [
    'netns',
    'exec',
    netns,
    process.execPath,
    '--input-type=module',
    '-e',
    script,
  ]);
  return Number(stdout.trim());
}

function runDocker(
  args: readonly string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('docker', args, { cwd, env: { ...process.env, ...running().env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** node_cpu_seconds_total summed per mode (idle vs the rest), from a node's node_exporter. */
async function readCpuSeconds(url: string): Promise<{ idle: number; busy: number }> {
  const text = await (await fetch(url)).text();
  const out = { idle: 0, busy: 0 };
  for (const match of text.matchAll(/^node_cpu_seconds_total\{cpu="\d+",mode="([a-z]+)"\} (\S+)$/gm))
    out[match[1] === 'idle' ? 'idle' : 'busy'] += Number(match[2]);
  return out;
}

const toBusyShare = (a: { idle: number; busy: number }, b: { idle: number; busy: number }) =>
  (b.busy - a.busy) / (b.busy - a.busy + (b.idle - a.idle));

/**
 * Spends `cpuMs` of CPU time in a process placed in the node's cgroups (the quota'd work group, its cpuacct and
 * memory groups) before it starts; returns the wall time it took.
 */
async function burnInNode(node: FleetNodeHandle, cpuMs: number): Promise<number> {
  const script = `process.stdin.once('data',()=>{const t=performance.now();const end=process.cpuUsage().user/1000+${cpuMs};let x=0;while(process.cpuUsage().user/1000<end)for(let i=0;i<1e5;i++)x=(x*31+i)%1e9;console.log(performance.now()-t);process.exit(0)})`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  for (const dir of [node.cgroup.workDirs.cpu, node.cgroup.workDirs.compileCpuacct, node.cgroup.dirs.memory])
    writeFileSync(path.join(dir, 'cgroup.procs'), String(child.pid));
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin.write('go\n');
  await exited;
  return Number(stdout.trim());
}

/**
 * Starts one spinner per node (in its quota'd work group and its compile cpuacct group), lets them all spin for the
 * same `wallMs` at once, and returns the CPU each node's cpuacct counted over the spin, in ms. The counters are read
 * while the spinners wait on stdin, so process start and exit are not counted.
 */
async function spinTogether(nodes: readonly FleetNodeHandle[], wallMs: number): Promise<number[]> {
  const script = `let n=0;process.stdin.on('data',()=>{n+=1;if(n>1)process.exit(0);const t=performance.now();let x=0;while(performance.now()-t<${wallMs})for(let i=0;i<1e4;i++)x=(x*31+i)%1e9;console.log('done '+x)});console.log('ready')`;
  const spinners = nodes.map((node) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    for (const dir of [
      node.cgroup.workDirs.cpu,
      node.cgroup.workDirs.compileCpuacct,
      node.cgroup.dirs.memory,
    ])
      writeFileSync(path.join(dir, 'cgroup.procs'), String(child.pid));
    const lines: string[] = [];
    const waiters: { prefix: string; resolve: () => void }[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      for (const waiter of waiters.splice(0))
        if (lines.some((l) => l.startsWith(waiter.prefix))) waiter.resolve();
        else waiters.push(waiter);
    });
    const waitFor = (prefix: string) =>
      new Promise<void>((resolve) => {
        if (lines.some((l) => l.startsWith(prefix))) resolve();
        else waiters.push({ prefix, resolve });
      });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { node, child, waitFor, exited };
  });
  try {
    await Promise.all(spinners.map((s) => s.waitFor('ready')));
    const before = spinners.map((s) => readCpuUsageNs(s.node.cgroup.workDirs.compileCpuacct));
    for (const s of spinners) s.child.stdin.write('go\n');
    await Promise.all(spinners.map((s) => s.waitFor('done')));
    return spinners.map((s, i) => (readCpuUsageNs(s.node.cgroup.workDirs.compileCpuacct) - before[i]!) / 1e6);
  } finally {
    for (const s of spinners) s.child.stdin.end('exit\n');
    await Promise.all(spinners.map((s) => s.exited));
  }
}

const readJsonLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('nodes', () => {
  it("each node's node_exporter reports that node's own network counters", async () => {
    const { nodes, services } = running();
    const before = await Promise.all(nodes.map((n) => readTxBytes(n.nodeExporterUrl)));
    for (const counters of before) expect([...counters.keys()]).toEqual(['eth0']);
    const sender = nodes.find((n) => n.name === 'bench')!;
    await uploadFrom(sender.netns, `${services.sccacheUrl}probe/tx-counter`, 3_000_000);
    const after = await Promise.all(nodes.map((n) => readTxBytes(n.nodeExporterUrl)));
    nodes.forEach((node, i) => {
      const delta = after[i]!.get('eth0')! - before[i]!.get('eth0')!;
      if (node === sender) expect(delta).toBeGreaterThan(3_000_000);
      else expect(delta).toBeLessThan(500_000);
    });
  });

  it("each node's node_exporter reports that node's own CPU: a busy node's line rises, an idle node's stays low", async () => {
    const [busy, idle] = [running().nodes[0]!, running().nodes[1]!];
    const before = await Promise.all([busy, idle].map((node) => readCpuSeconds(node.nodeExporterUrl)));
    const wallMs = await burnInNode(busy, 500);
    const after = await Promise.all([busy, idle].map((node) => readCpuSeconds(node.nodeExporterUrl)));
    const [busyShare, idleShare] = [0, 1].map((i) => toBusyShare(before[i]!, after[i]!));
    console.log(
      `${busy.name}: ${(busyShare! * 100).toFixed(0)} % busy over ${wallMs.toFixed(0)} ms of burning; ${idle.name}: ${(idleShare! * 100).toFixed(0)} %`,
    );
    expect(busyShare).toBeGreaterThan(0.6);
    expect(idleShare).toBeLessThan(0.1);
  });

  it('a node at speed 0.5 computes at half the rate: in the same wall time it gets half the CPU', async () => {
    const forge = running().nodes.find((node) => node.name === 'forge')!;
    const kiln = running().nodes.find((node) => node.name === 'kiln')!;
    expect(kiln.cgroup.quotaCores).toBeCloseTo(forge.cgroup.quotaCores / 2, 6);
    // Both spin at once over the same wall window, so whatever else the host runs meanwhile falls on both alike;
    // the CPU each got is the kernel's count (cpuacct), not the spinner's own.
    const wallMs = 1500;
    const [fast, slow] = await spinTogether([forge, kiln], wallMs);
    const [fastCores, slowCores] = [fast! / wallMs, slow! / wallMs];
    console.log(
      `${wallMs} ms spinning: forge (quota ${forge.cgroup.quotaCores.toFixed(3)}) got ${fast!.toFixed(0)} ms of CPU, kiln (quota ${kiln.cgroup.quotaCores.toFixed(3)}) ${slow!.toFixed(0)} ms`,
    );
    expect(fastCores).toBeLessThan(1.1 * forge.cgroup.quotaCores);
    expect(fastCores).toBeGreaterThan(0.5 * forge.cgroup.quotaCores);
    expect(slowCores).toBeLessThan(1.1 * kiln.cgroup.quotaCores);
    expect(slow! / fast!).toBeGreaterThan(0.4);
    expect(slow! / fast!).toBeLessThan(0.6);
  });

  it('an upload from the WiFi-like node takes about link-ratio longer than from a wired one', async () => {
    const { nodes, services } = running();
    const wired = nodes.find((n) => n.name === 'forge')!;
    const wifi = nodes.find((n) => n.name === 'kiln')!;
    const linkRatio = wired.linkMbps / wifi.linkMbps;
    expect(linkRatio).toBeCloseTo(25, 0);
    const wiredBytes = 4_000_000;
    const wifiBytes = 400_000;
    const wiredMs = await uploadFrom(wired.netns, `${services.sccacheUrl}probe/wired`, wiredBytes);
    const wifiMs = await uploadFrom(wifi.netns, `${services.sccacheUrl}probe/wifi`, wifiBytes);
    const wiredMbps = wiredBytes / 1e3 / wiredMs;
    const wifiMbps = wifiBytes / 1e3 / wifiMs;
    expect(wiredMbps).toBeGreaterThan(wired.linkMbps * 0.7);
    expect(wiredMbps).toBeLessThan(wired.linkMbps * 1.3);
    expect(wiredMbps / wifiMbps).toBeGreaterThan(linkRatio * 0.7);
    expect(wiredMbps / wifiMbps).toBeLessThan(linkRatio * 1.3);
  });

  it('removes namespaces left behind by a dead run', async () => {
    const child = spawn('true');
    const deadPid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    const name = toNetnsName(createRunId(deadPid), 'stale');
    await execFileAsync('ip', ['netns', 'add', name]);
    expect(cleanupStaleFleets()).toContain(`netns ${name}`);
    const { stdout } = await execFileAsync('ip', ['netns', 'list']);
    expect(stdout).not.toContain(name);
    expect(stdout).toContain(running().nodes[0]!.netns);
  });
});

describe('the docker double', () => {
  it.each([
    [['buildx', 'bake', '--frobnicate'], 'unknown flag: --frobnicate', "See 'docker buildx bake --help'."],
    [
      ['buildx', 'bake', '--set', 'pytorch.no-cache'],
      'ERROR: invalid override pytorch.no-cache, expected target.name=value',
      undefined,
    ],
    [
      ['buildx', 'bake', '--print'],
      'ERROR: --print is a real buildx flag the rocm-perf fleet double does not implement',
      undefined,
    ],
    [
      ['buildx', 'history', 'trace', '--json'],
      'unknown flag: --json',
      "See 'docker buildx history trace --help'.",
    ],
    // buildx cuts a filter at the first of != = <= < >= > it finds, so `>=` reads as key `startedAt>`.
    [
      ['buildx', 'history', 'ls', '--filter', 'startedAt>=2026-01-01T00:00:00Z'],
      'ERROR: unsupported filter "startedAt>=2026-01-01T00:00:00Z"',
      undefined,
    ],
    [['buildx', 'history', 'ls', '--filter', 'status'], 'ERROR: invalid filter "status"', undefined],
    [
      ['buildx', 'history', 'ls', '--filter', 'status<error'],
      'ERROR: invalid separator for "status<error", expected = or !=',
      undefined,
    ],
  ])('refuses %j', async (args, firstLine, secondLine) => {
    const result = await runDocker(args, running().dir);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe(firstLine);
    if (secondLine) expect(lines[1]).toBe(secondLine);
  });

  it('bakes a small target end to end: metadata, trace, nginx, registry and Zot lines', async () => {
    const box = running();
    const metadataPath = path.join(box.dir, 'metadata.json');
    const result = await runDocker(
      [
        'buildx',
        'bake',
        '--builder',
        'forge',
        '--push',
        '--metadata-file',
        metadataPath,
        '--progress=rawjson',
        'bitsandbytes-wheel',
      ],
      box.dir,
    );
    expect(result.stderr).not.toContain('ERROR');
    expect(result.code).toBe(0);
    const vertexNames = result.stderr
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { vertexes?: { name: string }[] })
      .flatMap((s) => s.vertexes ?? [])
      .map((v) => v.name);
    expect(vertexNames).toContain(
      '[bitsandbytes-wheel stage-0 4/5] RUN --mount=type=secret,id=sccache sccache-build.sh bitsandbytes-wheel',
    );
    const metadata = JSON.parse(readFileSync(metadataPath, 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    const ref = String(metadata['bitsandbytes-wheel']?.['buildx.build.ref']);
    expect(ref).toMatch(/^forge\/forge0\/[a-z0-9]{25}$/);
    expect(metadata['bitsandbytes-wheel']?.['image.name']).toBe(
      `${box.services.registryUrl.slice('http://'.length)}/rocm/bitsandbytes-wheel:gfx1201`,
    );
    expect(metadata.pytorch?.['buildx.build.ref']).toMatch(/^forge\/forge0\//);

    const trace = await runDocker(
      ['buildx', 'history', 'trace', '--builder', 'forge', ref.split('/')[2]!],
      box.dir,
    );
    expect(trace.code).toBe(0);
    const spans = (
      JSON.parse(trace.stdout) as {
        data: { spans: { operationName: string; tags: { key: string; value: unknown }[] }[] }[];
      }
    ).data[0]!.spans;
    const names = spans.map((s) => s.operationName);
    expect(names).toContain('moby.buildkit.v1.Control/Solve');
    expect(names).toContain(
      '[stage-0 4/5] RUN --mount=type=secret,id=sccache sccache-build.sh bitsandbytes-wheel',
    );
    const blobPuts = spans.filter(
      (s) =>
        s.operationName === 'HTTP PUT' &&
        s.tags.some((t) => t.key === 'url.full' && String(t.value).includes('/blobs/uploads/')),
    );
    expect(blobPuts.length).toBeGreaterThan(0);
    expect(
      blobPuts.every(
        (s) => Number(s.tags.find((t) => t.key === 'http.request.header.content-length')?.value) > 0,
      ),
    ).toBe(true);

    const forge = box.nodes.find((n) => n.name === 'forge')!;
    const nginx = readJsonLines(box.services.nginxLogPath).filter((l) => l.remote_addr === forge.address);
    expect(
      nginx.some(
        (l) => l.method === 'GET' && l.status === 404 && String(l.uri).startsWith('/sccache/rocm/gfx1201/'),
      ),
    ).toBe(true);
    expect(nginx.some((l) => l.method === 'PUT' && l.status === 201 && Number(l.content_length) > 0)).toBe(
      true,
    );

    const zot = readJsonLines(box.services.zotLogPath).filter((l) =>
      String(l.clientIP).startsWith(`${forge.address}:`),
    );
    expect(Object.keys(zot[0]!)).toEqual([
      'time',
      'level',
      'message',
      'module',
      'component',
      'clientIP',
      'method',
      'path',
      'statusCode',
      'latency',
      'bodySize',
      'headers',
      'caller',
      'func',
      'goroutine',
    ]);
    expect(
      zot.some(
        (l) =>
          l.method === 'PUT' &&
          String(l.path).includes('/v2/rocm/cache/manifests/bitsandbytes-wheel-gfx1201') &&
          l.statusCode === 201,
      ),
    ).toBe(true);
    expect(
      zot.some(
        (l) =>
          l.method === 'PUT' &&
          String(l.path).includes('digest=sha256%3A') &&
          Number((l.headers as Record<string, string[]>)['Content-Length']?.[0]) > 0,
      ),
    ).toBe(true);
    const registryJson = readFileSync(box.services.registryLogPath, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(
      registryJson.some((l) => l.includes('"http.request.method":"PUT"') && l.includes('bitsandbytes-wheel')),
    ).toBe(true);
  });

  it('a rebuild after a source change misses the layer cache but hits sccache', async () => {
    const box = running();
    box.bumpRevisions(['bitsandbytes-wheel']);
    const startedMs = Date.now();
    const metadataPath = path.join(box.dir, 'metadata-rebuild.json');
    const result = await runDocker(
      [
        'buildx',
        'bake',
        '--builder',
        'anvil',
        '--push',
        '--metadata-file',
        metadataPath,
        '--progress=quiet',
        'bitsandbytes-wheel',
      ],
      box.dir,
    );
    expect(result.code).toBe(0);
    const metadata = JSON.parse(readFileSync(metadataPath, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(metadata)).toContain('bitsandbytes-wheel');
    expect(Object.keys(metadata)).toContain('bitsandbytes-wheel');
    // Outside the double: nginx's log says which sccache entries anvil read and wrote, the proxy's record which
    // blobs it pushed.
    const anvil = box.nodes.find((node) => node.name === 'anvil')!;
    const during = (ms: number) => ms >= startedMs && ms <= Date.now();
    const entries = readJsonLines(box.services.nginxLogPath).filter(
      (line) =>
        line.remote_addr === anvil.address &&
        during(Number(line.msec) * 1000) &&
        /\/[0-9a-f]\/[0-9a-f]\/[0-9a-f]\/[0-9a-f]{64}$/.test(String(line.uri)),
    );
    const hits = entries.filter((line) => line.method === 'GET' && line.status === 200).length;
    const writes = entries.filter((line) => line.method === 'PUT').length;
    expect(writes).toBe(0);
    expect(hits).toBe(readFleetState(box.statePath).targets['bitsandbytes-wheel']!.compileUnits);
    const blobPuts = (repository: string) =>
      readRegistryTruth(box.services.registryTruthPath).filter(
        (line) =>
          line.clientIp === anvil.address &&
          during(line.firstByteMs) &&
          line.method === 'PUT' &&
          line.path.startsWith(`/v2/rocm/${repository}/blobs/uploads/`),
      ).length;
    expect(blobPuts('pytorch')).toBe(0);
    expect(blobPuts('bitsandbytes-wheel')).toBeGreaterThan(0);
  });
});
