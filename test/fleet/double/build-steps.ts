// The Dockerfile steps of a simulated wheel target: internal loads, FROM the base image context, COPY of linked
// targets, COPY of the source, the compile RUN (sccache traffic + CPU burn) and the wheel-pack RUN.
import { createHash, randomBytes } from 'node:crypto';
import { fetchManifest } from './registry-push.js';
import { createSccacheClient } from './sccache-traffic.js';
import { runVertex } from './run-vertex.js';
import { sleep, type BuildEnv, type TargetRun } from './build-context.js';

function toDockerImageContexts(run: TargetRun): [string, string][] {
  return Object.entries(run.target.contexts ?? {})
    .filter((entry): entry is [string, string] => entry[1]?.startsWith('docker-image://') ?? false)
    .map(([name, value]) => [name, value.slice('docker-image://'.length)]);
}

export function toLinkedTargets(run: TargetRun): string[] {
  return Object.values(run.target.contexts ?? {})
    .filter((value): value is string => value?.startsWith('target:') ?? false)
    .map((value) => value.slice('target:'.length));
}

/** `[internal] load …` vertexes; resolving each docker-image context fails the build when the registry lacks it. */
export async function runInternalSteps(env: BuildEnv, run: TargetRun): Promise<void> {
  const dockerfile = run.target.dockerfile ?? 'Dockerfile';
  await runVertex(env, run, {
    name: `[internal] load build definition from ${dockerfile.split('/').at(-1)}`,
    work: () => sleep(15),
  });
  for (const [, ref] of toDockerImageContexts(run)) {
    await runVertex(env, run, {
      name: `[internal] load metadata for ${ref}`,
      work: async (span) => {
        const manifest = await fetchManifest(ref, {
          userAgent: env.userAgent,
          trace: { recorder: env.recorder, parent: span },
        });
        if (!manifest) throw new Error(`failed to solve: ${ref}: not found`);
        run.materials.push({ uri: `pkg:docker/${ref}?platform=linux%2Famd64`, digest: manifest.digest });
      },
    });
  }
  await runVertex(env, run, { name: '[internal] load .dockerignore', work: () => sleep(5) });
  await runVertex(env, run, {
    name: '[internal] load build context',
    cacheRequest: true,
    work: () => sleep(25),
  });
}

function toStepNames(run: TargetRun): {
  from: string;
  copies: string[];
  compile: string;
  pack: string;
  count: number;
} {
  const base = toDockerImageContexts(run)[0]?.[1] ?? 'scratch';
  const copies = [
    ...toLinkedTargets(run).map((name) => `COPY --from=${name} /wheels /deps/${name}`),
    'COPY . /src',
  ];
  const count = 3 + copies.length;
  const width = String(count).length;
  const label = (i: number) => `[stage-0 ${String(i).padStart(width, ' ')}/${count}]`;
  return {
    from: `${label(1)} FROM ${base}`,
    copies: copies.map((text, i) => `${label(i + 2)} ${text}`),
    compile: `${label(count - 1)} RUN --mount=type=secret,id=sccache sccache-build.sh ${run.name}`,
    pack: `${label(count)} RUN python -m build --wheel --outdir /wheels`,
    count,
  };
}

/** CPU milliseconds of work that take `wallMs` on a speed-1 node (whose cgroup quota is `cpuBaseCores`). */
const toCpuMs = (env: BuildEnv, wallMs: number) => wallMs * env.state.cpuBaseCores;

/**
 * The RUN that compiles: per unit an sccache lookup; a miss compiles (CPU work for the unit), then writes the
 * entry; a hit still preprocesses and hashes (5 % of the unit's work), as sccache must to find the key.
 */
async function compileUnits(env: BuildEnv, run: TargetRun, stepMs: number, vertex: string): Promise<void> {
  const prefix = run.target.args?.SCCACHE_WEBDAV_KEY_PREFIX ?? undefined;
  const units = run.cost.compileUnits;
  const unitCpuMs = toCpuMs(env, stepMs / units);
  const sccache = prefix ? createSccacheClient({ endpoint: env.sccacheEndpoint, prefix }) : undefined;
  await sccache?.check();
  const counts = { requests: 0, hits: 0, misses: 0, writes: 0 };
  for (let unit = 0; unit < units; unit++) {
    const key = createHash('sha256').update(`${run.name}:${unit}`).digest('hex');
    counts.requests++;
    if (sccache && (await sccache.lookup(key))) {
      counts.hits++;
      await env.burner.burn(unitCpuMs * 0.05);
      continue;
    }
    counts.misses++;
    await env.burner.burn(unitCpuMs);
    if (sccache) {
      await sccache.write(key, randomBytes(run.cost.sccacheEntryBytes));
      counts.writes++;
    }
  }
  const summary = `sccache: ${counts.requests} compile requests, ${counts.hits} hits, ${counts.misses} misses, ${counts.writes} writes (prefix ${prefix ?? 'none'})\n`;
  env.progress.log({ vertex, text: summary });
}

/**
 * The Dockerfile stage; every step is `load cache:` when the layer cache hit. Durations are shares of the
 * target's build seconds on a speed-1 node: the compile (90 %) and pack (8 %) RUNs are CPU work, so the node's
 * quota sets how long they take; FROM and the COPYs (I/O) take the same time everywhere.
 */
export async function runStageSteps(env: BuildEnv, run: TargetRun, cached: boolean): Promise<void> {
  const names = toStepNames(run);
  const buildMs = run.cost.buildSeconds * 1000;
  await runVertex(env, run, {
    name: names.from,
    cached,
    cacheRequest: true,
    work: () => sleep(cached ? 5 : 30),
  });
  for (const copy of names.copies)
    await runVertex(env, run, { name: copy, cached, work: () => sleep(cached ? 5 : buildMs * 0.01) });
  await runVertex(env, run, {
    name: names.compile,
    cached,
    work: (_span, digest) => (cached ? sleep(10) : compileUnits(env, run, buildMs * 0.9, digest)),
  });
  await runVertex(env, run, {
    name: names.pack,
    cached,
    work: () => (cached ? sleep(5) : env.burner.burn(toCpuMs(env, buildMs * 0.08))),
  });
}
