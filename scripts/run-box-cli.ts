import path from 'node:path';
import { execa } from 'execa';
import type { RunningFleet } from '../test/fleet/index.js';

// The built CLI against a fleet in a box, for the scripts that record or evaluate on one: the box's environment
// only, its fleet.yaml, and a failure that says which command failed.

const repoRoot = path.resolve(import.meta.dirname, '..');

export async function runBoxCli(
  fleet: RunningFleet,
  args: string[],
  { echo = false, stderr = 'inherit' }: { echo?: boolean; stderr?: 'inherit' | 'pipe' } = {},
): Promise<string> {
  const result = await execa('node', [path.join(repoRoot, 'bin/rocm-perf.js'), ...args], {
    cwd: repoRoot,
    env: { ...fleet.env, HOME: process.env.HOME ?? '/root', NO_COLOR: '1', PERF_FLEET: fleet.fleetPath },
    extendEnv: false,
    reject: false,
    stdout: 'pipe',
    stderr,
  });
  if (result.exitCode !== 0)
    throw new Error(
      `rocm-perf ${args.join(' ')} exited ${result.exitCode}${stderr === 'pipe' ? `\n${String(result.stderr)}` : ''}`,
    );
  if (echo) console.log(`$ rocm-perf ${args.join(' ')}\n${String(result.stdout)}`);
  return String(result.stdout);
}
