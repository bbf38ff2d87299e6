// The fleet needs root (network namespaces, veth, tc) and Debian's daemons. Where it cannot run, the tests fail
// with one line naming the reason and the command to run — they never pass silently.
import { existsSync } from 'node:fs';
import { findMissingControllers } from './node-cgroups.js';

const fleetTestCommand = 'sudo npx vitest run --project integration test/integration/fleet-box.test.ts';

const requiredBinaries: readonly [string, string][] = [
  ['/usr/sbin/ip', 'iproute2'],
  ['/usr/sbin/tc', 'iproute2'],
  ['/usr/bin/prometheus-node-exporter', 'prometheus-node-exporter'],
  ['/usr/sbin/nginx', 'nginx-light'],
  ['/usr/lib/nginx/modules/ngx_http_dav_ext_module.so', 'libnginx-mod-http-dav-ext'],
  ['/usr/bin/docker-registry', 'docker-registry'],
  ['/usr/sbin/sshd', 'openssh-server'],
];

/** A one-line reason the fleet cannot start here, or undefined when it can. */
export function findFleetBlocker(): string | undefined {
  if (process.getuid?.() !== 0)
    return `the fleet in a box needs root (network namespaces, veth, tc); run: ${fleetTestCommand}`;
  const missing = requiredBinaries.filter(([file]) => !existsSync(file)).map(([, pkg]) => pkg);
  if (missing.length > 0)
    return `the fleet in a box needs Debian packages ${[...new Set(missing)].join(', ')}; run: apt-get install -y ${[...new Set(missing)].join(' ')}`;
  const controllers = findMissingControllers();
  if (controllers.length > 0)
    return `the fleet in a box needs the cgroup v1 controllers ${controllers.join(', ')} under /sys/fs/cgroup (each node's CPU quota and counters); this host lacks them`;
  return undefined;
}

export function assertFleetCanStart(): void {
  const blocker = findFleetBlocker();
  if (blocker) throw new Error(blocker);
}
