// The one helper that spawns the built CLI hands its child a clean environment: what the child process really
// received is read back from inside it (node -e prints process.env before the bin would load), so a developer's
// PERF_FLEET, DOCKER_CONFIG, SSH_AUTH_SOCK or HOME never reaches a test's CLI.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../../helpers/run-built-cli.js';

const leaks = {
  PERF_FLEET: '/leak/fleet.yaml',
  PERF_ROOT: '/leak/runs',
  DOCKER_CONFIG: '/leak/docker',
  SSH_AUTH_SOCK: '/leak/agent.sock',
};
const saved = Object.fromEntries(Object.keys(leaks).map((key) => [key, process.env[key]]));
afterEach(() => {
  for (const [key, value] of Object.entries(saved))
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
});

async function childEnv(options: Parameters<typeof runBuiltCli>[1] = {}): Promise<Record<string, string>> {
  Object.assign(process.env, leaks);
  const printEnv = ['-e', 'process.stdout.write(JSON.stringify(process.env)); process.exit(0)'];
  const result = await runBuiltCli([], { ...options, nodeArgs: printEnv });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, string>;
}

describe('runBuiltCli', () => {
  it('passes PATH, LANG, NO_COLOR and an empty temporary HOME, and nothing else of this process', async () => {
    const env = await childEnv();
    const expectedKeys = ['HOME', 'NO_COLOR', 'PATH', ...(process.env.LANG === undefined ? [] : ['LANG'])];
    expect(Object.keys(env).sort()).toEqual(expectedKeys.sort());
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.NO_COLOR).toBe('1');
    expect(env.HOME).not.toBe(homedir());
    expect(existsSync(env.HOME!)).toBe(true);
    expect(readdirSync(env.HOME!)).toEqual([]);
  });

  it('adds what the test passes: a runs root as PERF_ROOT, and env on top', async () => {
    const env = await childEnv({ root: '/tmp', env: { PERF_FLEET: '/test/fleet.yaml', HOME: '/test/home' } });
    expect(env).toMatchObject({ PERF_ROOT: '/tmp', PERF_FLEET: '/test/fleet.yaml', HOME: '/test/home' });
    expect(env.DOCKER_CONFIG).toBeUndefined();
    expect(env.SSH_AUTH_SOCK).toBeUndefined();
  });
});
