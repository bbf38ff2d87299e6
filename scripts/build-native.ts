// Builds the native line scanner (binding.gyp → build/Release/rocm_perf_scan.node) with node-gyp: `npm ci` runs it
// as the package's install step and `npm run build` runs it again (incremental: make rebuilds only what changed).
// Without a C toolchain the build fails; the CLI then reads logs through its JavaScript paths (same records,
// slower on large logs), so a failure warns and exits 0 — unless ROCM_PERF_REQUIRE_NATIVE=1 (CI), where it fails.
// See docs/native-scanner.md.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const required = process.env.ROCM_PERF_REQUIRE_NATIVE === '1';

if (process.env.ROCM_PERF_NATIVE === '0' && !required) {
  console.log('build-native: skipped (ROCM_PERF_NATIVE=0)');
  process.exit(0);
}

/** npm hands its own node-gyp to lifecycle scripts in npm_config_node_gyp; else the one on PATH. */
function toNodeGypCommand(): { command: string; args: string[] } {
  const bundled = process.env.npm_config_node_gyp;
  return bundled !== undefined && existsSync(bundled)
    ? { command: process.execPath, args: [bundled] }
    : { command: 'node-gyp', args: [] };
}

// `build` alone reuses build/Makefile (make recompiles only changed sources); `rebuild` configures first.
const verb = existsSync(path.join(root, 'build', 'Makefile')) ? 'build' : 'rebuild';
const { command, args } = toNodeGypCommand();
const runNodeGyp = (step: string) => spawnSync(command, [...args, step], { cwd: root, stdio: 'inherit' });
let result = runNodeGyp(verb);
// A build/ left by another Node version or toolchain: configure again from scratch.
if (result.status !== 0 && verb === 'build') result = runNodeGyp('rebuild');
if (result.status === 0) process.exit(0);

const reason = result.error === undefined ? `node-gyp ${verb} exited ${result.status}` : result.error.message;
console.error(
  [
    '',
    `build-native: the native line scanner was NOT built (${reason}).`,
    '  rocm-perf still works: it reads zot.jsonl and the sccache log through its JavaScript parsers, with the',
    '  same records, about 2-3x slower on large logs.',
    '  Fix: install a C toolchain (Debian: apt-get install g++ make python3), then run `npm run build:native`.',
    '',
  ].join('\n'),
);
process.exit(required ? 1 : 0);
