// Confinement as users meet it (docs/trust.md): the built CLI on copies of the shipped sample run with a file
// turned into a link to a secret outside the run dir (a hard link, a FIFO). Every command refuses the file and
// names it, and the secret's bytes appear in no output: not on stdout or stderr, not in any file written.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../helpers/daemons/index.js';
import { assertCliBuilt, repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

const SECRET = 'SECRET-root:x:0:0:hunter2';
const REFUSED = 'a run-dir file is read only when it is a regular file of its own';
const sample = (name: 'warm' | 'cold') => path.join(repoRoot, `fixtures/runs/gfx1201-${name}`);
let temp: TempDir;
let root: string;
let secret: string;

beforeAll(async () => {
  await assertCliBuilt();
  temp = createTempDir('confine-e2e');
  root = path.join(temp.path, 'runs');
  mkdirSync(root);
  mkdirSync(path.join(temp.path, 'etc'));
  secret = path.join(temp.path, 'etc', 'passwd');
  writeFileSync(secret, `${SECRET}\n`);
});
afterAll(() => temp?.remove());

/** A copy of a shipped sample under the root, without its data.json (so every reader reads the run files). */
function copyRun(stamp: string, from: 'warm' | 'cold' = 'warm'): string {
  const dir = path.join(root, stamp);
  cpSync(sample(from), dir, { recursive: true });
  rmSync(path.join(dir, 'data.json'), { force: true });
  return dir;
}

function linkOut(dir: string, name: string, how: 'symlink' | 'hardlink' = 'symlink'): void {
  rmSync(path.join(dir, name));
  if (how === 'symlink') symlinkSync(secret, path.join(dir, name));
  else linkSync(secret, path.join(dir, name));
}

/** Every regular file under DIR (links not followed), with its text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file, text: readFileSync(file, 'utf8') };
    });
}

function expectNoSecret(result: { stdout: string; stderr: string }, dirs: readonly string[]): void {
  expect(result.stdout).not.toContain('SECRET');
  expect(result.stderr).not.toContain('SECRET');
  for (const dir of dirs)
    for (const { file, text } of filesUnder(dir)) {
      if (statSync(file).ino === statSync(secret).ino) continue; // the planted hard link itself
      expect(text, file).not.toContain('SECRET');
    }
}

describe('a link to a secret in a run dir', () => {
  it('report: artifacts.txt a symlink → a WARNING naming it, exit 1, the secret in no file written', async () => {
    const dir = copyRun('20260401T000000Z');
    linkOut(dir, 'artifacts.txt');
    const result = await runBuiltCli(['report', dir], { root });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `WARNING: artifacts.txt: cannot be read (refused: a symbolic link; ${REFUSED}, never through a link); every figure from it is missing`,
    );
    expect(readdirSync(dir)).toContain('data.json');
    expectNoSecret(result, [dir]);
  });

  it('report: run.json a symlink → one error line naming it and a hint, exit 2', async () => {
    const dir = copyRun('20260402T000000Z');
    linkOut(dir, 'run.json');
    const result = await runBuiltCli(['report', dir], { root });
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      `error: ${path.join(dir, 'run.json')}: refused: a symbolic link; ${REFUSED}`,
      expect.stringMatching(
        /^hint: replace it with the file itself .*never follows a link out of a run dir$/,
      ),
    ]);
    expectNoSecret(result, [dir]);
  });

  it('diff: a hard-linked trace in B → WARNING naming it, exit 1, the secret nowhere', async () => {
    const a = copyRun('20260403T000000Z', 'cold');
    const b = copyRun('20260404T000000Z');
    linkOut(b, 'trace-pytorch.json', 'hardlink');
    const html = path.join(temp.path, 'diff.html');
    const result = await runBuiltCli(['diff', '--force', a, b, '--html', html], { root });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      'trace-pytorch.json: cannot be read (refused: a hard link (2 names for one file; another may be outside the run dir)',
    );
    expect(readFileSync(html, 'utf8')).not.toContain('SECRET');
    expectNoSecret(result, [a, b]);
  });

  it('export --perfetto: zot.jsonl a symlink → WARNING naming it, exit 1, the trace written without the secret', async () => {
    const dir = copyRun('20260405T000000Z');
    linkOut(dir, 'zot.jsonl');
    const out = path.join(temp.path, 'perfetto.json');
    const result = await runBuiltCli(['export', '--perfetto', dir, '--out', out], { root });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('WARNING: zot.jsonl: cannot be read (refused: a symbolic link;');
    expect(readFileSync(out, 'utf8')).not.toContain('SECRET');
    expectNoSecret(result, [dir]);
  });

  it('costs --from: a trace a symlink → one error line naming it and a hint, exit 2, nothing written', async () => {
    const dir = copyRun('20260406T000000Z', 'cold');
    linkOut(dir, 'trace-pytorch.json');
    const out = path.join(temp.path, 'costs-out');
    const result = await runBuiltCli(
      [
        'costs',
        '--fleet',
        path.join(repoRoot, 'fleet.yaml'),
        '--costs',
        path.join(repoRoot, '.builders/target-costs'),
        '--from',
        dir,
        '--out',
        out,
      ],
      { root },
    );
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    // costs goes through the run checks' gate (docs/damaged-runs.md): the refusal is the reason the trace failed them.
    expect(lines[0]).toContain(
      `error: --from ${dir}: trace-pytorch.json failed the run's checks (trace-pytorch.json: cannot be read (refused: a symbolic link;`,
    );
    expect(lines[1]).toMatch(/^hint: /);
    expect(() => statSync(out)).toThrow();
    expectNoSecret(result, [dir]);
  });
});

describe('import of a run holding links and special files', () => {
  function plantAll(dir: string): void {
    linkOut(dir, 'artifacts.txt');
    linkSync(path.join(dir, 'zot.jsonl'), path.join(dir, 'zot-copy.jsonl'));
    execFileSync('mkfifo', [path.join(dir, 'samples.fifo')]);
  }
  const named = [
    'artifacts.txt (a symbolic link)',
    'samples.fifo (a FIFO (named pipe))',
    'zot-copy.jsonl (a hard link (2 names for one file; another may be outside the run dir))',
    'zot.jsonl (a hard link (2 names for one file; another may be outside the run dir))',
  ].join(', ');

  it('a run dir: refused whole, each entry named, nothing imported', async () => {
    const elsewhere = path.join(temp.path, 'ci', '20260407T000000Z');
    cpSync(sample('warm'), elsewhere, { recursive: true });
    plantAll(elsewhere);
    const into = path.join(temp.path, 'import-root-1');
    const result = await runBuiltCli(['import', '--lane', 'nightly', '--root', into, elsewhere], { root });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `error: ${elsewhere}: 4 entries are not a regular file of the run: ${named}; nothing was imported`,
      expect.stringMatching(/^hint: pack the run with its files themselves/),
    ]);
    expect(readdirSync(into)).toEqual([]);
  });

  it('a .tar.gz made by tar: refused whole, each entry named, nothing imported', async () => {
    const stage = path.join(temp.path, 'tarball');
    const run = path.join(stage, '20260408T000000Z');
    cpSync(sample('warm'), run, { recursive: true });
    plantAll(run);
    const tarball = path.join(temp.path, 'nightly.tar.gz');
    execFileSync('tar', ['-czf', tarball, '-C', stage, '20260408T000000Z']);
    // The archive really holds a symlink, a hard link and a FIFO (tar's own listing: type letters l, h, p).
    const listing = execFileSync('tar', ['-tvzf', tarball], { encoding: 'utf8' });
    expect(listing).toMatch(/^l.* 20260408T000000Z\/artifacts\.txt -> /m);
    expect(listing).toMatch(/^h.* 20260408T000000Z\/zot(-copy)?\.jsonl link to /m);
    expect(listing).toMatch(/^p.* 20260408T000000Z\/samples\.fifo$/m);
    const into = path.join(temp.path, 'import-root-2');
    const result = await runBuiltCli(['import', '--lane', 'nightly', '--root', into, tarball], { root });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `error: ${tarball}: 4 entries are not a regular file of the run: ${named}; nothing was imported`,
      expect.stringMatching(/^hint: pack the run with its files themselves/),
    ]);
    expect(readdirSync(into)).toEqual([]);
  });
});

describe('run dirs and what is written into them', () => {
  it('a folder holding only a stray trace is not a run: refused, nothing written', async () => {
    const dir = path.join(temp.path, 'stray');
    mkdirSync(dir);
    cpSync(path.join(sample('warm'), 'trace-pytorch.json'), path.join(dir, 'trace-pytorch.json'));
    const result = await runBuiltCli(['report', dir], { root });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: ${dir}: not a run dir: no run.json, no lane.txt, and no trace-<target>.json beside another file of a run; it holds 1 file(s) (trace-pytorch.json). Nothing was read or written`,
    );
    expect(readdirSync(dir)).toEqual(['trace-pytorch.json']);
  });

  it("report removes a killed report's stale temp file, and keeps a fresh one", async () => {
    const dir = copyRun('20260409T000000Z');
    const dead = execFileSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).trim(); // exited
    const stale = path.join(dir, `.data.json.${dead}.tmp`);
    const fresh = path.join(dir, `.report.md.${dead}.tmp`);
    writeFileSync(stale, '{"half');
    writeFileSync(fresh, '# half');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(stale, twoMinutesAgo, twoMinutesAgo);
    const result = await runBuiltCli(['report', dir], { root });
    expect(result.exitCode, result.stderr).toBe(0);
    const left = readdirSync(dir).filter((name) => name.endsWith('.tmp'));
    expect(left).toEqual([path.basename(fresh)]);
  });

  it('report.md and the diff markdown hold no raw HTML from a target name', async () => {
    const a = copyRun('20260410T000000Z');
    const b = copyRun('20260411T000000Z');
    const evil = '<img src=x onerror=alert(1)>';
    for (const dir of [a, b])
      renameSync(path.join(dir, 'trace-pytorch.json'), path.join(dir, `trace-${evil}.json`));
    const report = await runBuiltCli(['report', b], { root });
    expect(report.exitCode).toBe(1); // pytorch's trace is gone: loud
    const md = readFileSync(path.join(b, 'report.md'), 'utf8');
    expect(md).toContain('&lt;img src=x onerror=alert(1)>');
    expect(md).not.toContain('<img');
    const diff = await runBuiltCli(['diff', a, b], { root });
    expect(diff.stdout).toContain('&lt;img src=x onerror=alert(1)>');
    expect(diff.stdout).not.toContain('<img');
  });
});

describe('every expected error of import and costs: one error line and a hint, never a stack', () => {
  const costs = (dir: string) => [
    'costs',
    '--fleet',
    path.join(repoRoot, 'fleet.yaml'),
    '--costs',
    path.join(repoRoot, '.builders/target-costs'),
    '--from',
    dir,
    '--dry-run',
  ];
  it.each([
    [
      'costs: a trace not JSON',
      () => costs(withTrace('garbage\n')),
      /^error: --from .*: trace-pytorch\.json failed the run's checks \(trace-pytorch\.json: .*found no records/,
    ],
    [
      'costs: a trace of an unknown encoding',
      () => costs(withTrace('{"foo":1}\n')),
      /^error: --from .*: trace-pytorch\.json failed the run's checks \(trace-pytorch\.json: .*found no records/,
    ],
    [
      'import: a damaged tarball',
      () => {
        const file = path.join(temp.path, 'damaged.tar.gz');
        writeFileSync(file, 'not a tarball\n');
        return ['import', '--lane', 'x', '--root', path.join(temp.path, 'import-hints'), file];
      },
      /^error: localhost: `tar -xzf .*damaged\.tar\.gz .*` exited 2: gzip: stdin: not in gzip format$/,
    ],
    [
      'import: run.json not JSON',
      () => {
        const dir = path.join(temp.path, 'ci-bad-json', '20260412T000000Z');
        cpSync(sample('warm'), dir, { recursive: true });
        writeFileSync(path.join(dir, 'run.json'), '{\n');
        return ['import', '--lane', 'x', '--root', path.join(temp.path, 'import-hints'), dir];
      },
      /^error: .*\/run\.json: not JSON/,
    ],
  ])('%s', async (_, args, first) => {
    const result = await runBuiltCli(args(), { root });
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(first);
    expect(lines.filter((line) => line.startsWith('hint: '))).toHaveLength(1);
    expect(result.stderr).not.toMatch(/this is a bug|^\s+at /m);
  });

  it('import: a lane.txt the run came with, even a directory, is replaced by the lane given (was a stack)', async () => {
    const dir = path.join(temp.path, 'ci-lane-dir', '20260413T000000Z');
    cpSync(sample('warm'), dir, { recursive: true });
    mkdirSync(path.join(dir, 'lane.txt'));
    const into = path.join(temp.path, 'import-lane');
    const result = await runBuiltCli(['import', '--lane', 'nightly', '--root', into, dir], { root });
    expect(result.exitCode, result.stderr).toBe(0);
    const imported = /: (\/.*)$/.exec(result.stdout)?.[1] ?? '';
    expect(path.dirname(imported)).toBe(into);
    expect(readFileSync(path.join(imported, 'lane.txt'), 'utf8')).toBe('nightly\n');
  });
});

let traces = 0;
/** A copy of the cold sample (a run `costs` takes) whose pytorch trace holds TEXT. */
function withTrace(text: string): string {
  const dir = copyRun(`20260420T0000${String((traces += 1)).padStart(2, '0')}Z`, 'cold');
  writeFileSync(path.join(dir, 'trace-pytorch.json'), text);
  return dir;
}
