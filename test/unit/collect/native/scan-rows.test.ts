// The row layout is written twice: scan-rows.h for the C scanners, scan-rows.ts for the TypeScript readers. This
// reads the header's `#define NAME number` lines and checks both sides name the same numbers, and that the built
// addon reports the Zot stride the readers use.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLineScannerState } from '../../../../src/collect/native/load-line-scanner.js';
import { listRowConstants, ZotRow } from '../../../../src/collect/native/scan-rows.js';

const header = path.resolve(import.meta.dirname, '../../../../src/collect/native/scan-rows.h');
const rowPrefixes = /^(?:ROW|ZOT|TPL|DECODE|SCCACHE)_/;

/** Every `#define NAME <integer>` of a C header (include guards and other defines without a number are left out). */
function parseDefines(text: string): Record<string, number> {
  const defines: Record<string, number> = {};
  for (const match of text.matchAll(/^[ \t]*#[ \t]*define[ \t]+([A-Z_][A-Z0-9_]*)[ \t]+(-?\d+)\b/gm)) {
    const [, name = '', value = ''] = match;
    defines[name] = Number(value);
  }
  return defines;
}

describe('scan-rows.h and scan-rows.ts', () => {
  const defines = parseDefines(readFileSync(header, 'utf8'));
  const constants = listRowConstants();

  it('reads the header (the parser finds the row defines)', () => {
    expect(defines).toMatchObject({ ROW_ACCEPTED: 3, ZOT_STRIDE: 21, TPL_FIELD_STRIDE: 6 });
    expect(Object.keys(constants).length).toBeGreaterThan(40);
  });

  it('every TypeScript constant is defined in the header with the same value', () => {
    const disagreeing = Object.entries(constants).filter(([name, value]) => defines[name] !== value);
    expect(disagreeing.map(([name, value]) => `${name}: ts ${value}, header ${defines[name]}`)).toEqual([]);
  });

  it('every ROW_/ZOT_/TPL_/DECODE_/SCCACHE_ define of the header is known to TypeScript', () => {
    const unknown = Object.keys(defines).filter((name) => rowPrefixes.test(name) && !(name in constants));
    expect(unknown).toEqual([]);
  });
});

describe('the loaded addon', () => {
  const { scanner, description } = loadLineScannerState();

  it('writes Zot rows of ZotRow.stride doubles', () => {
    if (process.env.ROCM_PERF_NATIVE === '0') {
      expect(scanner).toBeUndefined();
      return;
    }
    expect(scanner, `native scanner not loaded: ${description}`).toBeDefined();
    expect((scanner as unknown as { zotStride: unknown }).zotStride).toBe(ZotRow.stride);
  });
});
