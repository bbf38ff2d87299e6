import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { execa } from 'execa';
import { assertCliBuilt, repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

// Usage errors as users see them from the built CLI: exit 2, one `error:` line naming what is wrong, one `hint:`
// line, nothing on stdout, no stack.

let temp: TempDir;
beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('usage-errors');
});
afterAll(() => temp?.remove());

describe('a run dir that does not exist', () => {
  it.each([
    [
      ['report', '/nonexistent'],
      /^error: \/nonexistent: no such run dir \(looked in the current directory and under /,
    ],
    [['diff', '/nonexistent', '/nonexistent-too'], /^error: \/nonexistent: no such run dir/],
    [['export', '--perfetto', '/nonexistent'], /^error: \/nonexistent: no such run dir/],
    [
      ['costs', '--from', '/nonexistent'],
      /^error: --from \/nonexistent: no such run dir \(looked at \/nonexistent\)$/,
    ],
    [['plan', '--from-run', '/nonexistent'], /^error: --from-run \/nonexistent: no such run dir/],
    [['serve', '--root', '/nonexistent', '--port', '0'], /^error: --root \/nonexistent: no such directory$/],
  ])('%j: one error line and a hint, exit 2', async (args, message) => {
    const result = await runBuiltCli(args, { root: temp.path });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(message);
    expect(lines[1]).toMatch(/^hint: pass (a run dir|the runs root)/);
  });
});

describe('a bad flag value', () => {
  it('names the flag, the value and the fix, exit 2, before reading any file', async () => {
    const result = await runBuiltCli(
      ['cold', '--sample-interval-ms', 'abc', '--fleet', '/nonexistent.yaml'],
      {
        root: temp.path,
      },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      'error: --sample-interval-ms abc: expected a positive number of milliseconds. Use e.g. --sample-interval-ms 2000.',
      'hint: `rocm-perf cold --help` lists every flag',
    ]);
  });
});

describe('a command line that names no command, an unknown one, or leaves out a required flag', () => {
  it.each([
    [['frobnicate'], "error: unknown command 'frobnicate'", 'hint: `rocm-perf --help` lists the commands'],
    [
      ['diff', 'somewhere'],
      "error: missing required argument 'run-b'",
      'hint: `rocm-perf diff --help` lists its flags and arguments',
    ],
    [
      ['import', 'somewhere'],
      'error: import: no --lane for somewhere',
      'hint: name where the run was recorded: `rocm-perf import --lane nightly-aws SRC` (a .dockerbuild comes in as lane `ci` unless told)',
    ],
    [
      ['plan', '--bogus'],
      "error: unknown option '--bogus'",
      'hint: `rocm-perf plan --help` lists its flags and arguments',
    ],
  ])('%j: the error, then a hint naming the help to read, exit 2', async (args, error, hint) => {
    const result = await runBuiltCli(args, { root: temp.path });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([error, hint]);
  });

  it('`rocm-perf` alone: the help on stderr, an error and a hint, exit 2', async () => {
    const result = await runBuiltCli([], { root: temp.path });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe('Usage: rocm-perf [options] [command]');
    expect(lines).toContain(
      '  plan [options]                  place every target on a node (builds nothing)',
    );
    expect(lines.slice(-2)).toEqual([
      'error: no command given',
      'hint: name one, e.g. `rocm-perf plan`; the list is above',
    ]);
  });

  it('an empty PERF_ROOT is not set: report looks under the default root, naming it', async () => {
    const result = await execa(process.execPath, [path.join(repoRoot, 'bin/rocm-perf.js'), 'report'], {
      reject: false,
      cwd: temp.path,
      env: { NO_COLOR: '1', PERF_ROOT: '', PERF_FLEET: '' },
      extendEnv: true,
    });
    expect(result.stderr).not.toMatch(/under $/m);
    expect(result.stderr).toMatch(/\/var\/tmp\/rocm-perf/);
  });
});

/** The last two stderr lines (notes may come first): the error and its hint. No stack, no "this is a bug". */
function expectOneErrorAndHint(stderr: string, message: RegExp, hint: RegExp): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain('this is a bug');
  const lines = stderr.split('\n');
  expect(lines.at(-2)).toMatch(message);
  expect(lines.at(-1)).toMatch(hint);
}

const WARM_RUN = path.join(repoRoot, 'fixtures/runs/gfx1201-warm');
const COLD_RUN = path.join(repoRoot, 'fixtures/runs/gfx1201-cold');
const FLEET = path.join(repoRoot, 'fleet.yaml');

describe('output paths, ports and addresses: one error line and a hint, exit 2, nothing left behind', () => {
  it('export --out into a missing folder', async () => {
    const out = path.join(temp.path, 'missing', 'trace.json');
    const result = await runBuiltCli(['export', '--perfetto', WARM_RUN, '--out', out], { root: temp.path });
    expect(result.exitCode).toBe(2);
    expectOneErrorAndHint(
      result.stderr,
      new RegExp(`^error: --out ${out}: cannot write the trace: folder ${path.dirname(out)} does not exist$`),
      /^hint: create it first \(mkdir -p /,
    );
  });

  it('export --out onto a directory leaves no .tmp file beside it', async () => {
    const dir = path.join(temp.path, 'export-onto-dir');
    await mkdir(path.join(dir, 'out'), { recursive: true });
    const result = await runBuiltCli(['export', '--perfetto', WARM_RUN, '--out', path.join(dir, 'out')], {
      root: temp.path,
    });
    expect(result.exitCode).toBe(2);
    expectOneErrorAndHint(
      result.stderr,
      /^error: --out .*\/out: cannot write the trace: .*\/out is a folder$/,
      /^hint: name a file, e\.g\. --out .*\/out\/perfetto-trace\.json$/,
    );
    expect(await readdir(dir)).toEqual(['out']);
  });

  it('costs --out into a missing folder', async () => {
    const costs = path.join(temp.path, 'target-costs');
    await writeFile(costs, await readFile(path.join(repoRoot, '.builders/target-costs')));
    const out = path.join(temp.path, 'missing', 'costs');
    const result = await runBuiltCli(
      // The sample was recorded on the box's bake definition, not the shipped print's: both waived, so --out decides.
      [
        'costs',
        '--fleet',
        FLEET,
        '--from',
        COLD_RUN,
        '--allow-other-fleet',
        '--allow-other-bake',
        '--costs',
        costs,
        '--out',
        out,
      ],
      { root: temp.path },
    );
    expect(result.exitCode).toBe(2);
    expectOneErrorAndHint(
      result.stderr,
      /^error: --out .*\/missing\/costs: cannot write the target costs: folder .*\/missing does not exist$/,
      /^hint: create it first/,
    );
  });

  it('plan --out naming a file', async () => {
    const file = path.join(temp.path, 'plan-out-file.txt');
    await writeFile(file, 'mine');
    const result = await runBuiltCli(['plan', '--fleet', FLEET, '--out', file], { root: temp.path });
    expect(result.exitCode).toBe(2);
    expectOneErrorAndHint(
      result.stderr,
      /^error: --out .*plan-out-file\.txt: cannot write plan\.json into it: .*plan-out-file\.txt is a file, not a folder$/,
      /^hint: /,
    );
    expect(await readFile(file, 'utf8')).toBe('mine');
  });

  it('report --root naming a file', async () => {
    const file = path.join(temp.path, 'root-file.txt');
    await writeFile(file, 'x');
    const result = await runBuiltCli(['report', '--root', file], { root: temp.path });
    expect(result.exitCode).toBe(2);
    expectOneErrorAndHint(
      result.stderr,
      /^error: --root .*root-file\.txt: cannot list its runs: .*root-file\.txt is a file, not a folder$/,
      /^hint: /,
    );
  });

  it('publish --out a folder of other files: refused, the files kept', async () => {
    const root = path.join(temp.path, 'publish-root');
    await mkdir(root);
    await writeFile(path.join(root, 'not-a-run.txt'), '');
    const docs = path.join(temp.path, 'docs');
    await mkdir(docs);
    await writeFile(path.join(docs, 'keep.txt'), 'keep');
    const runs = path.join(temp.path, 'publish-runs');
    await mkdir(runs);
    await cp(WARM_RUN, path.join(runs, 'r1'), { recursive: true });
    const result = await runBuiltCli(['publish', '--root', runs, '--out', docs], { root: temp.path });
    expect(result.exitCode).toBe(2);
    expectOneErrorAndHint(
      result.stderr,
      /^error: .*docs holds other files \(keep\.txt\), not a site rocm-perf wrote: nothing was written$/,
      /^hint: choose a new or empty folder/,
    );
    expect(await readdir(docs)).toEqual(['keep.txt']);
    expect((await readdir(runs)).filter((name) => name.includes('staging'))).toEqual([]);
  });

  it('plan with no fleet.yaml here: names --fleet and where it looked', async () => {
    const result = await runBuiltCli(['plan'], { root: temp.path });
    expect(result.exitCode).toBe(2);
    expectOneErrorAndHint(
      result.stderr,
      new RegExp(`^error: --fleet fleet\\.yaml: no such file \\(looked at ${temp.path}/fleet\\.yaml\\)$`),
      /^hint: run from the directory that holds fleet\.yaml, or pass --fleet FILE \(or PERF_FLEET\)$/,
    );
  });

  it('warm --plan naming a missing file: names --plan, before any run dir is made', async () => {
    const root = path.join(temp.path, 'plan-flag-root');
    const result = await runBuiltCli(
      ['warm', '--fleet', FLEET, '--root', root, '--plan', path.join(temp.path, 'nope.json')],
      { root: temp.path },
    );
    expect(result.exitCode).toBe(2);
    expectOneErrorAndHint(
      result.stderr,
      /^error: --plan .*nope\.json: no such file$/,
      /^hint: write one with `rocm-perf plan --out DIR`/,
    );
    await expect(readdir(root)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('serve --root naming a file', async () => {
    const file = path.join(temp.path, 'serve-root.txt');
    await writeFile(file, '');
    const result = await runBuiltCli(['serve', '--root', file, '--bind', '127.0.0.1', '--port', '0'], {
      root: temp.path,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expectOneErrorAndHint(
      result.stderr,
      /^error: --root .*serve-root\.txt: a file, not a directory of runs$/,
      /^hint: pass the runs root/,
    );
  });

  it('costs --costs naming a directory: refused, not read as an empty file', async () => {
    const result = await runBuiltCli(
      ['costs', '--fleet', FLEET, '--from', COLD_RUN, '--costs', temp.path, '--dry-run'],
      { root: temp.path },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expectOneErrorAndHint(
      result.stderr,
      /^error: --costs .*: cannot read the target costs: .* is a folder$/,
      /^hint: name a file/,
    );
  });

  it('serve on a port in use', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const result = await runBuiltCli(
        ['serve', '--root', temp.path, '--bind', '127.0.0.1', '--port', String(port)],
        {
          root: temp.path,
        },
      );
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expectOneErrorAndHint(
        result.stderr,
        new RegExp(`^error: --port ${port}: 127\\.0\\.0\\.1:${port} is already in use by another program$`),
        /pass another --port \(PERF_PORT\), e\.g\. --port \d+$/,
      );
    } finally {
      holder.close();
    }
  });

  it.each([
    ['999.1.1.1', /neither an IP address nor a host name this host resolves$/],
    ['192.0.2.123', /this host has no such address$/],
  ])('serve --bind %s', async (bind, message) => {
    const result = await runBuiltCli(['serve', '--root', temp.path, '--bind', bind, '--port', '0'], {
      root: temp.path,
    });
    expect(result.exitCode).toBe(2);
    expectOneErrorAndHint(
      result.stderr,
      new RegExp(`^error: --bind ${bind.replace(/\./g, '\\.')}: ${message.source}`),
      /^hint: pass one of this host's addresses \(.*127\.0\.0\.1/,
    );
  });

  it('stdout on a full device: one line, exit 2', async () => {
    // The child writes to the device itself (a file descriptor), as `rocm-perf plan > /dev/full` does.
    const full = openSync('/dev/full', 'w');
    const result = await new Promise<{ exitCode: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [path.join(repoRoot, 'bin/rocm-perf.js'), 'plan', '--fleet', FLEET],
        {
          cwd: temp.path,
          stdio: ['ignore', full, 'pipe'],
        },
      );
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (exitCode) => resolve({ exitCode, stderr: stderr.trimEnd() }));
    }).finally(() => closeSync(full));
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')).toEqual([
      'error: cannot write to standard output: no space left on the device it goes to',
      'hint: send the output somewhere with room (a pipe, or a file on another disk)',
    ]);
  });
});
