import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../helpers/run-built-cli.js';

// `--help` must not load zod (issue 36 item 10: zod's chunk was most of --help's start-up). What Node really loads
// is recorded by a module hook (node:module `register`, outside the CLI), then each loaded file is read here: zod is
// any file under node_modules/zod or a bundle chunk holding zod's `ZodError`. `plan`, which parses its flags, is the
// control: the same detector must find zod there.

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rocm-perf-help-modules-'));
  await writeFile(
    path.join(dir, 'hooks.mjs'),
    [
      "import { appendFileSync } from 'node:fs';",
      'export async function load(url, context, next) {',
      "  if (url.startsWith('file:')) appendFileSync(process.env.LOADED_LOG, `${url}\\n`);",
      '  return next(url, context);',
      '}',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});\n`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the built CLI under the hook; returns its result and every file it loaded. */
async function runRecorded(args: string[], name: string) {
  const log = path.join(dir, `${name}.log`);
  await writeFile(log, '');
  const result = await runBuiltCli(args, {
    nodeArgs: ['--import', path.join(dir, 'register.mjs')],
    env: { LOADED_LOG: log },
  });
  const urls = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  return { result, files: [...new Set(urls.map((url) => fileURLToPath(url)))] };
}

async function findZodFiles(files: readonly string[]): Promise<string[]> {
  const zod: string[] = [];
  for (const file of files) {
    if (file.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)) zod.push(file);
    else if ((await readFile(file, 'utf8')).includes('ZodError')) zod.push(file);
  }
  return zod;
}

describe('start-up: what --help loads', () => {
  it('`rocm-perf --help` and `rocm-perf plan --help` print their help without loading zod', async () => {
    for (const args of [['--help'], ['plan', '--help']]) {
      const { result, files } = await runRecorded(args, args.join('-'));
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^Usage: rocm-perf/m);
      expect(files.some((file) => file.endsWith(`${path.sep}dist${path.sep}cli.js`))).toBe(true);
      expect(await findZodFiles(files), args.join(' ')).toEqual([]);
    }
  });

  it('the control: `rocm-perf plan` parses its flags with zod, and the detector finds it', async () => {
    const { result, files } = await runRecorded(['plan'], 'plan');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await findZodFiles(files)).not.toEqual([]);
  });
});
