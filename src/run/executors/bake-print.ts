import { execa } from 'execa';
import { RemoteCommandError } from '../../shared/errors.js';

export interface FetchBakePrintOptions {
  bakeFile: string;
  targets: readonly string[];
  env?: Record<string, string>;
}

export type RunBakePrint = (options: FetchBakePrintOptions) => Promise<string>;

// Runs the real `docker buildx bake --print`; JSON on stdout.
export const runBakePrint: RunBakePrint = async ({ bakeFile, targets, env }) => {
  const args = ['buildx', 'bake', '-f', bakeFile, '--print', ...targets];
  const result = await execa('docker', args, { reject: false, env, extendEnv: true });
  if (result.failed || result.exitCode !== 0) {
    throw new RemoteCommandError(
      {
        host: 'localhost',
        command: `docker ${args.join(' ')}`,
        exitCode: result.exitCode,
        stderrTail: String(result.stderr).slice(-800),
      },
      { cause: result, hint: 'check the bake file, or pass --bake-json with a saved print' },
    );
  }
  return String(result.stdout);
};
