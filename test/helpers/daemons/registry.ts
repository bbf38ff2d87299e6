// Debian's docker-registry (CNCF Distribution 2.8) with JSON logging, the access log on, filesystem storage in a
// temp dir and deletes enabled.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findFreePort } from './free-port.js';
import { createPortProbe, startDaemon } from './process.js';
import { createTempDir } from './temp-dir.js';

export interface StartRegistryOptions {
  netns?: string;
  host?: string;
  port?: number;
  /**
   * Another CNCF Distribution binary than Debian's (e.g. v3.1.2, `scripts/compare-distribution-registry.ts`); it
   * reads the same config.
   */
  command?: string;
}

export interface RunningRegistry {
  /** `http://HOST:PORT` (no trailing slash). */
  url: string;
  /** stdout + stderr of the registry: JSON log lines plus combined-format access lines. */
  logPath: string;
  storageDir: string;
  stop: () => Promise<void>;
}

function buildRegistryConfig(options: { addr: string; storageDir: string }): string {
  return [
    'version: 0.1',
    'log:',
    '  level: info',
    '  formatter: json',
    '  accesslog:',
    '    disabled: false',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${options.storageDir}`,
    '  delete:',
    '    enabled: true',
    '  maintenance:',
    '    uploadpurging:',
    '      enabled: false',
    'http:',
    `  addr: ${options.addr}`,
    'health:',
    '  storagedriver:',
    '    enabled: false',
    '',
  ].join('\n');
}

export async function startRegistry(options: StartRegistryOptions = {}): Promise<RunningRegistry> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (options.netns === undefined ? await findFreePort(host) : 5000);
  const dir = createTempDir('registry');
  const storageDir = path.join(dir.path, 'data');
  mkdirSync(storageDir);
  const configPath = path.join(dir.path, 'config.yml');
  writeFileSync(configPath, buildRegistryConfig({ addr: `${host}:${port}`, storageDir }));
  const logPath = path.join(dir.path, 'registry.log');
  const daemon = await startDaemon({
    name: options.command === undefined ? 'docker-registry' : path.basename(options.command),
    command: options.command ?? '/usr/bin/docker-registry',
    args: ['serve', configPath],
    netns: options.netns,
    logPath,
    isReady: createPortProbe({ netns: options.netns, port }),
  }).catch((error: unknown) => {
    dir.remove();
    throw error;
  });
  return {
    url: `http://${host}:${port}`,
    logPath,
    storageDir,
    stop: async () => {
      await daemon.stop();
      dir.remove();
    },
  };
}
