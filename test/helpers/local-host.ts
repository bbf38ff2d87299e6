import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RemoteHost } from '../../src/run/executors/remote-host.js';

const run = promisify(execFile);

/** A RemoteHost that runs the commands locally with sh: the "remote" files are local paths. */
export const localHost: RemoteHost = {
  label: 'builder@store.test',
  async run(command) {
    try {
      const { stdout, stderr } = await run('sh', ['-c', command], { encoding: 'buffer' });
      return { exitCode: 0, stdout, stderr: stderr.toString() };
    } catch (error) {
      const failure = error as { code?: number; stdout?: Buffer; stderr?: Buffer };
      return {
        exitCode: failure.code ?? 1,
        stdout: failure.stdout ?? Buffer.alloc(0),
        stderr: String(failure.stderr ?? ''),
      };
    }
  },
  close: () => undefined,
};
