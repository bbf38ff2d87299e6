// Loads the native line scanner once per process: build/Release/rocm_perf_scan.node under the package root (built by
// `npm ci` and `npm run build`, see docs/native-scanner.md). ROCM_PERF_NATIVE=0 turns it off; ROCM_PERF_NATIVE_ADDON
// loads another build of it instead (the sanitizer build of scripts/check-native-sanitizers.ts). Without it the
// log readers use their JavaScript paths: the same records, several times slower on large logs.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { LineScanner } from './line-scanner.js';
import { ZotRow } from './scan-rows.js';

export const SCANNER_VERSION = 2;
const addonFile = 'build/Release/rocm_perf_scan.node';

const AddonSchema = z.object({
  version: z.literal(SCANNER_VERSION),
  zotStride: z.literal(ZotRow.stride),
  createZotScanner: z.function(),
  createTemplateScanner: z.function(),
  scan: z.function(),
});

export interface LineScannerState {
  scanner: LineScanner | undefined;
  /** Where it was loaded from, or why it was not. */
  description: string;
}

let loaded: LineScannerState | undefined;

/** src/collect/native and dist/collect/native are both three levels below the package root. */
const packageRoot = () => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The addon at `file` (an absolute path), checked against this build's version and row layout; never throws. */
export function loadLineScannerFrom(file: string): LineScannerState {
  if (!existsSync(file))
    return {
      scanner: undefined,
      description: `not built (${file} is missing; run \`npm run build:native\`)`,
    };
  try {
    const addon: unknown = createRequire(import.meta.url)(file);
    const parsed = AddonSchema.safeParse(addon);
    if (!parsed.success)
      return {
        scanner: undefined,
        description: `${file} is of another version (expected version ${SCANNER_VERSION}); run \`npm run build:native\``,
      };
    return { scanner: addon as LineScanner, description: `native (${file})` };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      scanner: undefined,
      description: `${file} failed to load: ${reason}; run \`npm run build:native\``,
    };
  }
}

/**
 * The native scanner, or undefined (with the reason in loadLineScannerState().description). When it was not turned
 * off but cannot be used, the first call says so once on stderr (`warning: …`):
 * logs are then read by the JavaScript parsers, with the same records, only slower.
 */
export function loadLineScanner(): LineScanner | undefined {
  const first = loaded === undefined;
  const state = loadLineScannerState();
  if (first && state.scanner === undefined && !isTurnedOff())
    process.stderr.write(
      `warning: native line scanner unavailable: ${state.description}. Logs are read by the JavaScript parsers (same records, slower on large logs).\n`,
    );
  return state.scanner;
}

const isTurnedOff = () => process.env.ROCM_PERF_NATIVE === '0' || process.env.ROCM_PERF_NATIVE === 'off';

export function loadLineScannerState(): LineScannerState {
  if (loaded !== undefined) return loaded;
  loaded = isTurnedOff()
    ? { scanner: undefined, description: `off (ROCM_PERF_NATIVE=${process.env.ROCM_PERF_NATIVE})` }
    : loadLineScannerFrom(process.env.ROCM_PERF_NATIVE_ADDON ?? path.join(packageRoot(), addonFile));
  return loaded;
}
