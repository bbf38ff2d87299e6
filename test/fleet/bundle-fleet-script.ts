// Puts the `docker` double in a bin dir: bundled with esbuild into one .mjs (starts in ~0.1 s) when esbuild is
// installed, else a wrapper running the TypeScript source through tsx.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './create-box-fleet.js';

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The argv (after node) that runs a TypeScript entry of the box: a minified esbuild bundle written to `bundlePath`
 * when esbuild is installed, else the source through tsx.
 */
export function bundleFleetScript(entry: string, bundlePath: string): string[] {
  const esbuild = path.join(repoRoot, 'node_modules/.bin/esbuild');
  if (!existsSync(esbuild))
    return ['--import', path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs'), entry];
  execFileSync(
    esbuild,
    [
      entry,
      '--bundle',
      '--minify',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      `--outfile=${bundlePath}`,
      '--log-level=warning',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return [bundlePath];
}

/** Writes `<binDir>/docker`; returns its path. */
export function installDockerDouble(binDir: string): string {
  mkdirSync(binDir, { recursive: true });
  const entry = path.join(repoRoot, 'test/fleet/double/main.ts');
  const dockerPath = path.join(binDir, 'docker');
  const argv = bundleFleetScript(entry, path.join(binDir, 'docker-double.mjs'));
  const command = `exec ${[process.execPath, ...argv].map(shellQuote).join(' ')} "$@"`;
  writeFileSync(
    dockerPath,
    `#!/bin/sh\n# rocm-perf fleet-in-a-box \`docker\` double (buildx subset); see docs/fleet-in-a-box.md\n${command}\n`,
  );
  chmodSync(dockerPath, 0o755);
  return dockerPath;
}
