// `npm run fleet:up`: starts the fleet in a box for a demo and prints what to export; Ctrl-C tears it all down.
// Options: --time-scale <n> (default 1/150 of the scenario's seconds), --cpu-cores <n> (CPU quota of a speed-1
// node, default from this host's cores), --scenario box|gfx1201 (the 4-node cut, or all 5 nodes and 13 targets).
import { startFleet } from '../test/fleet/index.js';

function readOption(name: string): number | undefined {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return undefined;
  const raw = process.argv[index + 1] ?? '';
  const value = raw.includes('/') ? Number(raw.split('/')[0]) / Number(raw.split('/')[1]) : Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name}: expected a positive number or a fraction like 1/150, got \`${raw}\``);
  return value;
}

const timeScale = readOption('time-scale');
const cpuBaseCores = readOption('cpu-cores');
const scenarioIndex = process.argv.indexOf('--scenario');
const scenario = scenarioIndex === -1 ? 'box' : process.argv[scenarioIndex + 1];
if (scenario !== 'box' && scenario !== 'gfx1201')
  throw new Error(`--scenario: expected box or gfx1201, got \`${scenario ?? ''}\``);
const fleet = await startFleet({
  scenario,
  ...(timeScale ? { scale: { timeScale } } : {}),
  ...(cpuBaseCores ? { cpuBaseCores: Math.min(1, cpuBaseCores) } : {}),
});
const lines = [
  `# fleet in a box ${fleet.runId} is up (${fleet.nodes.map((n) => `${n.name} ${n.address} ${n.linkMbps} MB/s`).join(', ')})`,
  `export DOCKER_CONFIG='${fleet.env.DOCKER_CONFIG}'`,
  `export PERF_FLEET='${fleet.fleetPath}'`,
  `# e.g.: rocm-perf plan; cd ${fleet.dir} && docker buildx bake --print; docker buildx bake --builder forge --push bitsandbytes-wheel`,
  `# logs: nginx ${fleet.services.nginxLogPath}  zot ${fleet.services.zotLogPath}  registry ${fleet.services.registryLogPath}`,
  `# ssh known_hosts: ${fleet.knownHostsPath}`,
  `# press Ctrl-C here (or kill -INT ${process.pid}) to tear the box down`,
];
console.log(lines.join('\n'));
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await fleet.stop();
  console.log('# fleet stopped and removed');
  process.exit(0);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.prependListener(signal, () => void shutdown());
setInterval(() => undefined, 60_000);
