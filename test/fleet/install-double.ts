// Puts the `docker` double in a bin dir: bundled with esbuild into one .mjs (starts in ~0.1 s) when esbuild is
// installed, else a wrapper running the TypeScript source through tsx.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './create-box-fleet.js';

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** Writes `<binDir>/docker`; returns its path. */
export function installDockerDouble(binDir: string): string {
  mkdirSync(binDir, { recursive: true });
  const entry = path.join(repoRoot, 'test/fleet/double/main.ts');
  const esbuild = path.join(repoRoot, 'node_modules/.bin/esbuild');
  const dockerPath = path.join(binDir, 'docker');
  let command: string;
  if (existsSync(esbuild)) {
    const bundle = path.join(binDir, 'docker-double.mjs');
    execFileSync(
      esbuild,
      [
        entry,
        '--bundle',
        '--minify',
        '--platform=node',
        '--format=esm',
        '--target=node20',
        `--outfile=${bundle}`,
        '--log-level=warning',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    command = `exec ${shellQuote(process.execPath)} ${shellQuote(bundle)} "$@"`;
  } else {
    const loader = path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs');
    command = `exec ${shellQuote(process.execPath)} --import ${shellQuote(loader)} ${shellQuote(entry)} "$@"`;
  }
  writeFileSync(
    dockerPath,
    `#!/bin/sh\n# rocm-perf fleet-in-a-box \`docker\` double (buildx subset); see docs/fleet-in-a-box.md\n${command}\n`,
  );
  chmodSync(dockerPath, 0o755);
  return dockerPath;
}
