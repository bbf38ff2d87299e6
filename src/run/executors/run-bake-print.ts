import { execa } from 'execa';
import { RemoteCommandError } from '../../shared/errors.js';
import { toBakePrintCommand, type BakePrintCall } from './buildx-command.js';

export interface FetchBakePrintOptions extends BakePrintCall {
  env?: Record<string, string>;
}

export type RunBakePrint = (options: FetchBakePrintOptions) => Promise<string>;

// Runs the real `buildx bake --print` (docker's plugin or a standalone binary); JSON on stdout.
export const runBakePrint: RunBakePrint = async (options) => {
  const { file, args, command } = toBakePrintCommand(options);
  const result = await execa(file, args, { reject: false, env: options.env, extendEnv: true });
  if (result.failed || result.exitCode !== 0) {
    throw new RemoteCommandError(
      {
        host: 'localhost',
        command,
        exitCode: result.exitCode,
        // A binary that cannot be started has no stderr; execa's short message says why (ENOENT, EACCES).
        stderrTail: (String(result.stderr ?? '').trim() || (result.shortMessage ?? '')).slice(-800),
      },
      { cause: result, hint: 'check the bake file, or pass --bake-json with a saved print' },
    );
  }
  return String(result.stdout);
};
