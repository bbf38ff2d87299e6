// A synthetic fleet run, deterministic from a seed: nodes, targets placed in per-node queues with pytorch first
// (every wheel depends on it), and per target a record made of setup, steps, uploads and an export tail.
// The renderers turn it into the spec's files. Used by scripts/make-fixture-run.ts and bench/report.bench.ts.
import { createRandom as createSeededRandom } from '../../src/shared/random.js';

interface SimNode {
  name: string;
  builder: string;
  address: string;
  linkMbps: number;
}

interface SimStep {
  instruction: string;
  startMs: number;
  endMs: number;
  cached: boolean;
}

interface SimUpload {
  startMs: number;
  endMs: number;
  repository: string;
  reference: string;
  bytes: number;
  isCache: boolean;
  isManifest: boolean;
}

export interface SimTarget {
  name: string;
  node: string;
  deps: string[];
  startMs: number;
  endMs: number;
  steps: SimStep[];
  uploads: SimUpload[];
  plannedStartSeconds: number;
  plannedFinishSeconds: number;
}

export interface SimRun {
  stamp: string;
  harness: 'cold' | 'warm' | 'bench';
  namespace: string;
  startMs: number;
  endMs: number;
  nodes: SimNode[];
  targets: SimTarget[];
}

export interface SimulateRunOptions {
  stamp: string;
  harness?: 'cold' | 'warm' | 'bench';
  nodeCount: number;
  /** Wall-clock length of the run, roughly. */
  durationSeconds: number;
  targetsPerNode?: number;
  /** Total targets (pytorch included); default nodeCount × targetsPerNode. */
  targetCount?: number;
  seed?: number;
  startMs?: number;
}

const NODE_NAMES = [
  'forge',
  'strix',
  'anvil',
  'kiln',
  'lathe',
  'quarry',
  'smelt',
  'tongs',
  'vise',
  'bellows',
  'crucible',
  'hearth',
];
const WHEELS = [
  'triton',
  'aiter',
  'vllm',
  'flash-attn',
  'xformers',
  'apex',
  'torchvision',
  'torchaudio',
  'bitsandbytes',
  'deepspeed',
  'onnxruntime',
  'jax',
  'cupy',
  'megablocks',
];

/** `count` wheel names: the first 14 as before (fixtures unchanged), then `<wheel>-<round>-wheel` (a 100-target run). */
function buildWheelNames(count: number): string[] {
  return Array.from({ length: Math.max(0, count) }, (_, i) => {
    const round = Math.floor(i / WHEELS.length);
    return `${WHEELS[i % WHEELS.length]!}${round === 0 ? '' : `-${round + 1}`}-wheel`;
  });
}

/** The shared seeded PRNG (mulberry32) as a plain function. */
export const createRandom = (seed: number): (() => number) => createSeededRandom(seed).next;

function buildNodes(count: number, random: () => number): SimNode[] {
  return Array.from({ length: count }, (_, i) => {
    const name = NODE_NAMES[i % NODE_NAMES.length]! + (i >= NODE_NAMES.length ? String(i) : '');
    return {
      name,
      builder: `${name}-builder`,
      address: `10.20.0.${11 + i}`,
      linkMbps: Math.round(4 + random() * 40),
    };
  });
}

interface TargetBuild {
  name: string;
  node: SimNode;
  deps: string[];
  startMs: number;
  lengthMs: number;
  warm: boolean;
}

function buildTarget(
  { name, node, deps, startMs, lengthMs, warm }: TargetBuild,
  random: () => number,
): SimTarget {
  const setupMs = Math.round(lengthMs * (0.03 + random() * 0.04));
  const stepShare = warm ? 0.25 + random() * 0.2 : 0.55 + random() * 0.2;
  const stepsEnd = startMs + setupMs + Math.round(lengthMs * stepShare);
  const steps = buildSteps({ name, fromMs: startMs + setupMs, toMs: stepsEnd, random, warm });
  const uploadsEnd = startMs + Math.round(lengthMs * 0.97);
  const uploads = buildUploads({
    name,
    fromMs: stepsEnd + 2000,
    toMs: uploadsEnd,
    random,
    bytesPerMs: node.linkMbps * 1000,
  });
  return {
    name,
    node: node.name,
    deps,
    startMs,
    endMs: startMs + lengthMs,
    steps,
    uploads,
    plannedStartSeconds: 0,
    plannedFinishSeconds: 0,
  };
}

function buildSteps({
  name,
  fromMs,
  toMs,
  random,
  warm,
}: {
  name: string;
  fromMs: number;
  toMs: number;
  random: () => number;
  warm: boolean;
}): SimStep[] {
  const instructions = [
    `FROM rocm/pytorch:${name}-base`,
    'COPY requirements.txt /src/',
    `RUN pip wheel --no-deps /src/${name} -w /wheels`,
    'RUN auditwheel repair /wheels/*.whl -w /out',
    'RUN python -m pytest -q /src/tests/smoke',
  ];
  const weights = instructions.map((_, i) => (i === 0 ? 0.001 : i === 1 ? 0.01 : 0.2 + random()));
  const total = weights.reduce((a, b) => a + b, 0);
  let at = fromMs;
  return instructions.map((instruction, i) => {
    const cached = i < 2 || (warm && random() < 0.5);
    const lengthMs = cached ? 0 : Math.round(((toMs - fromMs) * weights[i]!) / total);
    const step = { instruction, startMs: at, endMs: at + lengthMs, cached };
    at += lengthMs;
    return step;
  });
}

function buildUploads({
  name,
  fromMs,
  toMs,
  random,
  bytesPerMs,
}: {
  name: string;
  fromMs: number;
  toMs: number;
  random: () => number;
  bytesPerMs: number;
}): SimUpload[] {
  if (toMs - fromMs < 4000) return [];
  const count = 3 + Math.floor(random() * 4);
  const slice = (toMs - fromMs) / count;
  return Array.from({ length: count }, (_, i) => {
    const isCache = i < count - 1;
    const isManifest = i === count - 1 || i === count - 2;
    const startMs = Math.round(fromMs + i * slice);
    const endMs = Math.round(startMs + slice * (isManifest ? 0.05 : 0.9));
    const bytes = isManifest
      ? 1800 + Math.floor(random() * 2000)
      : Math.round((endMs - startMs) * bytesPerMs);
    return {
      startMs,
      endMs,
      repository: isCache ? 'rocm/cache' : `rocm/${name}`,
      reference: isCache ? `${name}` : 'latest',
      bytes,
      isCache,
      isManifest,
    };
  });
}

export function simulateRun(options: SimulateRunOptions): SimRun {
  const random = createRandom(options.seed ?? 7);
  const harness = options.harness ?? 'warm';
  const startMs = options.startMs ?? Date.UTC(2026, 2, 14, 9, 20, 0);
  const nodes = buildNodes(options.nodeCount, random);
  const perNode = options.targetsPerNode ?? 2;
  const durationMs = options.durationSeconds * 1000;
  const pytorchMs = Math.round(durationMs * 0.3);
  const targets: SimTarget[] = [
    buildTarget(
      { name: 'pytorch', node: nodes[0]!, deps: [], startMs, lengthMs: pytorchMs, warm: harness === 'warm' },
      random,
    ),
  ];
  const names = buildWheelNames((options.targetCount ?? nodes.length * perNode) - 1);
  const free = nodes.map((_, i) => (i === 0 ? startMs + pytorchMs : startMs + pytorchMs + 1000));
  names.forEach((name, index) => {
    const nodeIndex = (index + 1) % nodes.length;
    const remaining = startMs + durationMs - free[nodeIndex]!;
    const lengthMs = Math.max(
      30_000,
      Math.round((remaining / Math.ceil((names.length + 1 - index) / nodes.length)) * (0.7 + random() * 0.3)),
    );
    const target = buildTarget(
      {
        name,
        node: nodes[nodeIndex]!,
        deps: ['pytorch'],
        startMs: free[nodeIndex]! + 1000,
        lengthMs,
        warm: harness === 'warm',
      },
      random,
    );
    free[nodeIndex] = target.endMs;
    targets.push(target);
  });
  for (const target of targets) {
    target.plannedStartSeconds = Math.max(
      0,
      Math.round((target.startMs - startMs) / 1000 - 20 + random() * 40),
    );
    target.plannedFinishSeconds =
      target.plannedStartSeconds +
      Math.round(((target.endMs - target.startMs) / 1000) * (0.8 + random() * 0.3));
  }
  const endMs = Math.max(...targets.map((t) => t.endMs));
  return {
    stamp: options.stamp,
    harness,
    namespace: harness === 'cold' ? 'rocm-coldrun' : 'rocm',
    startMs,
    endMs,
    nodes,
    targets,
  };
}
