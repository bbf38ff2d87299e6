// vitest globalSetup of the integration tier: the real build engine the fleet in a box runs (the pinned BuildKit and
// buildx of test/tools/versions.txt) is built when the cache lacks it. The first build takes minutes (Go module
// downloads and compiles); later runs find it cached and start at once. .ci/run builds it before `npm test`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readPinnedTools, toolsDir } from './fleet/real/tools.js';

const script = path.resolve(import.meta.dirname, 'tools/build-tools.sh');

export function setup(): void {
  const missing = readPinnedTools().filter(
    (tool) => !existsSync(path.join(toolsDir, `${tool.name}-${tool.version}`, '.built')),
  );
  if (missing.length === 0) return;
  console.error(
    `npm test: building ${missing.map((tool) => `${tool.name} ${tool.version}`).join(', ')} into ${toolsDir} (minutes, once)`,
  );
  execFileSync(script, { stdio: 'inherit' });
}
