import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { BuildxSetting } from '../../config/index.js';

// A standalone buildx named by fleet.yaml `bake.buildx`, PERF_BUILDX or --buildx must exist and be executable;
// otherwise every buildx call would fail with a bare `spawn … ENOENT`, so it is said once, with the setting.

export type ExecutableStatus = 'ok' | 'missing' | 'not-a-file' | 'not-executable';

/** Whether `file` exists, is a regular file (or a link to one) and this user may execute it. */
export async function readExecutableStatus(file: string): Promise<ExecutableStatus> {
  try {
    if (!(await stat(file)).isFile()) return 'not-a-file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'not-executable';
  }
  try {
    await access(file, constants.X_OK);
    return 'ok';
  } catch {
    return 'not-executable';
  }
}

/** How to change the setting that named the binary. */
function toSettingFix(setting: string): string {
  if (setting === 'PERF_BUILDX') return 'correct PERF_BUILDX, or unset it';
  if (setting === '--buildx') return 'correct --buildx, or drop it';
  return 'correct bake.buildx in fleet.yaml, or remove it';
}

/** Pure: the one problem a configured buildx binary has (naming the setting, the path and the fix), if any. */
export function describeBuildxProblem(buildx: BuildxSetting, status: ExecutableStatus): string | undefined {
  const { path, setting } = buildx;
  const fallback = `${toSettingFix(setting)} to run \`docker buildx\``;
  switch (status) {
    case 'ok':
      return undefined;
    case 'missing':
      return `buildx binary ${path} (${setting}) does not exist. Fix: install a standalone buildx release there (chmod +x), or give the binary's full path (e.g. \`command -v buildx\`); or ${fallback}`;
    case 'not-a-file':
      return `buildx binary ${path} (${setting}) is not a file. Fix: give the path of the buildx binary itself; or ${fallback}`;
    case 'not-executable':
      return `buildx binary ${path} (${setting}) is not executable by this user. Fix: \`chmod +x ${path}\`; or ${fallback}`;
  }
}

/** The problem with the configured buildx binary, read from the disk; undefined when unset or usable. */
export async function readBuildxProblem(buildx: BuildxSetting | undefined): Promise<string | undefined> {
  return buildx === undefined
    ? undefined
    : describeBuildxProblem(buildx, await readExecutableStatus(buildx.path));
}
