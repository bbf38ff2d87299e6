// vitest globalSetup of the integration tier: the Debian packages it needs (test/debian-packages.txt) are there, or
// installed now when running as root; as anyone else the run stops at once naming the one command to run.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const listPath = path.resolve(import.meta.dirname, 'debian-packages.txt');

export function readDebianPackages(): string[] {
  return readFileSync(listPath, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function isInstalled(name: string): boolean {
  const query = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return query.status === 0 && query.stdout.includes('install ok installed');
}

/** Daemons Debian starts on install would hold the ports the tests' own copies want. */
function stopDebianServices(): void {
  for (const service of ['nginx', 'prometheus-node-exporter', 'docker-registry', 'ssh'])
    spawnSync('service', [service, 'stop'], { stdio: 'ignore' });
}

export function setup(): void {
  const missing = readDebianPackages().filter((name) => !isInstalled(name));
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0)
    throw new Error(
      `the integration tests need Debian packages ${missing.join(', ')}; run: sudo sh -c '${command}'`,
    );
  console.error(`npm test: installing Debian packages ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: 'inherit',
    env,
  });
  stopDebianServices();
}
