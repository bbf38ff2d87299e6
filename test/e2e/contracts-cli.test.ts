// `rocm-perf contracts` as CI runs it: the built CLI, spawned. The real repo passes; a temp copy with one producer
// changed fails naming that pair (exit 1); usage errors exit 2. `--remote` reads a conf over a real sshd on loopback.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, startSshd, type RunningSshd, type TempDir } from '../helpers/daemons/index.js';
import { repoRoot, runBuiltCli } from '../helpers/run-built-cli.js';

const temps: TempDir[] = [];
afterAll(() => {
  for (const temp of temps) temp.remove();
});

interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface JsonReport {
  ok: boolean;
  results: {
    pair: string;
    ok: boolean;
    skipped: boolean;
    problems: {
      message: string;
      producer: { file: string; line?: number };
      consumer: { file: string; line?: number };
    }[];
  }[];
}

async function runCli(args: string[], cwd = repoRoot): Promise<CliResult> {
  const result = await runBuiltCli(['contracts', ...args], { cwd });
  return { status: result.exitCode ?? null, stdout: result.stdout, stderr: result.stderr };
}

function parseReport(result: CliResult): JsonReport {
  return JSON.parse(result.stdout) as JsonReport;
}

function failingPairs(report: JsonReport): string[] {
  return report.results.filter((result) => !result.ok).map((result) => result.pair);
}

/** A copy of every producer file (and the source tree) the contracts read. */
function copyRepo(): string {
  const temp = createTempDir('contracts');
  temps.push(temp);
  for (const entry of [
    'fleet.yaml',
    '.builders',
    'Makefile',
    'rocm-perf.schema.json',
    'src',
    'bin',
    'contrib',
  ]) {
    cpSync(path.join(repoRoot, entry), path.join(temp.path, entry), { recursive: true });
  }
  return temp.path;
}

function edit(dir: string, file: string, change: (text: string) => string): void {
  const target = path.join(dir, file);
  const before = readFileSync(target, 'utf8');
  const after = change(before);
  if (after === before)
    throw new Error(`mutation of ${file} changed nothing; the fixture no longer matches the repo`);
  writeFileSync(target, after);
}

beforeAll(() => {
  if (!existsSync(path.join(repoRoot, 'dist/cli.js')))
    throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
});

describe('rocm-perf contracts on the real repo', () => {
  it('exits 0 with every pair agreeing', async () => {
    const result = await runCli([]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^contracts: 5 pairs agree, 1 skipped$/m);
    expect(result.stdout).toMatch(/^ok {3}nginx-log-format: /m);
  });

  it('prints a versioned JSON report with --json', async () => {
    const result = await runCli(['--json']);
    expect(result.status).toBe(0);
    const report = parseReport(result);
    expect(report.ok).toBe(true);
    expect(report.results.map((entry) => entry.pair)).toEqual([
      'nginx-log-format',
      'registry-log',
      'target-costs',
      'makefile-shims',
      'fleet-schema',
      'prometheus-rules',
    ]);
    expect(report.results.find((entry) => entry.pair === 'makefile-shims')).toMatchObject({
      ok: true,
      skipped: false,
    });
  });

  it('passes on an unchanged copy given with --repo', async () => {
    const result = await runCli(['--repo', copyRepo(), '--json'], '/');
    expect(failingPairs(parseReport(result))).toEqual([]);
    expect(result.status).toBe(0);
  });
});

describe('mutations: change one producer in a temp copy, and its pair fails', () => {
  const mutations: [string, string, string, (text: string) => string, RegExp][] = [
    [
      'rename a logged variable',
      'nginx-log-format',
      '.builders/nginx-sccache.conf',
      (text) => text.replace('$request_method', '$request_verb'),
      /needs \$request_method/,
    ],
    [
      'rename a log key',
      'nginx-log-format',
      '.builders/nginx-sccache.conf',
      (text) => text.replace('"status":$status', '"code":$status'),
      /embeds another version of the conf/,
    ],
    [
      'unquote a field that can be empty',
      'nginx-log-format',
      '.builders/nginx-sccache.conf',
      (text) => text.replace('"content_length":"$content_length"', '"content_length":$content_length'),
      /\$content_length can be empty/,
    ],
    [
      'drop a cost line',
      'target-costs',
      '.builders/target-costs',
      (text) => text.replace(/^cache aiter-wheel .*\n/m, ''),
      /no `cache aiter-wheel <bytes>` line/,
    ],
    [
      'add a stale cost line',
      'target-costs',
      '.builders/target-costs',
      (text) => `${text}build rccl-wheel 600\n`,
      /stale line for `rccl-wheel`/,
    ],
    [
      'zero the export of a pushing target',
      'target-costs',
      '.builders/target-costs',
      (text) => text.replace(/^cache vllm-wheel .*$/m, 'cache vllm-wheel 0'),
      /cannot be 0 bytes/,
    ],
    [
      'rename a Makefile subcommand',
      'makefile-shims',
      'Makefile',
      (text) => text.replace('$(ROCM_PERF) warm', '$(ROCM_PERF) perfwarm'),
      /perf-warm runs `rocm-perf perfwarm`, which is not a subcommand/,
    ],
    [
      'add an unknown key to fleet.yaml',
      'fleet-schema',
      'fleet.yaml',
      (text) => text.replace('arch: gfx1201\n', 'arch: gfx1201\nachitecture: gfx1201\n'),
      /achitecture/,
    ],
    [
      'hand-edit the JSON schema',
      'fleet-schema',
      'rocm-perf.schema.json',
      (text) => text.replace('"additionalProperties": false', '"additionalProperties": true'),
      /differs from the schema the zod definition generates/,
    ],
    [
      'rename a series an alert rule reads',
      'prometheus-rules',
      'contrib/prometheus/rocm-perf-rules.yml',
      (text) => text.replace('rocm_perf_run_age_seconds', 'rocm_perf_run_age_days'),
      /reads `rocm_perf_run_age_days`, which rocm-perf serve does not export/,
    ],
  ];

  it.each(mutations)('%s → %s fails (exit 1)', async (_name, pair, file, change, message) => {
    const dir = copyRepo();
    edit(dir, file, change);
    const result = await runCli(['--repo', dir, '--json'], '/');
    expect(result.status).toBe(1);
    const report = parseReport(result);
    expect(failingPairs(report)).toEqual([pair]);
    const problems = report.results.find((entry) => entry.pair === pair)?.problems ?? [];
    expect(problems.map((problem) => problem.message).join('\n')).toMatch(message);
    expect(problems.every((problem) => problem.producer.file !== '' && problem.consumer.file !== '')).toBe(
      true,
    );
  });

  it('names both files and lines in the human output', async () => {
    const dir = copyRepo();
    edit(dir, '.builders/target-costs', (text) => `${text}cache old-wheel 100000000\n`);
    const result = await runCli(['--repo', dir], '/');
    expect(result.status).toBe(1);
    const lineNo = readFileSync(path.join(dir, '.builders/target-costs'), 'utf8')
      .trimEnd()
      .split('\n').length;
    expect(result.stdout).toContain(
      `FAIL target-costs: .builders/target-costs ↔ bake graph .builders/bake-print.gfx1201.json\n    - stale line for \`old-wheel\`: no such target in the bake graph. Fix: delete the line, or rename it to the target's new name.\n      producer .builders/target-costs:${lineNo}\n      consumer .builders/bake-print.gfx1201.json:`,
    );
    expect(result.stdout).toMatch(/^contracts: 1 of 6 pairs disagree: target-costs$/m);
  });
});

describe('registry log settings (--zot-config)', () => {
  it.each([
    ['info, writing the sliced file → exit 0', { level: 'info', output: '/var/log/zot/zot.log' }, 0],
    ['warn, so no session lines → exit 1', { level: 'warn', output: '/var/log/zot/zot.log' }, 1],
    ['another output file → exit 1', { level: 'info', output: '/var/log/zot.log' }, 1],
  ])('%s', async (_name, log, status) => {
    const dir = copyRepo();
    writeFileSync(
      path.join(dir, 'zot-config.json'),
      JSON.stringify({ distSpecVersion: '1.1.0', storage: { rootDirectory: '/var/lib/zot' }, log }, null, 2),
    );
    const result = await runCli(
      ['--repo', dir, '--zot-config', path.join(dir, 'zot-config.json'), '--only', 'registry-log', '--json'],
      '/',
    );
    expect(result.status).toBe(status);
    expect(failingPairs(parseReport(result))).toEqual(status === 0 ? [] : ['registry-log']);
  });
});

describe('usage errors exit 2', () => {
  it.each([
    [['--only', 'nginx'], /^error: --only nginx: expected a comma-separated list of nginx-log-format, /m],
    [
      ['--costs', '/nonexistent/target-costs'],
      /^error: --costs \/nonexistent\/target-costs: no such file or directory$/m,
    ],
    [['--no-such-flag'], /unknown option '--no-such-flag'/],
    // A folder as the fleet (what an empty PERF_FLEET once became): named, not read as a missing file.
    [['--fleet', '.'], /^error: --fleet \.: \/.* is a folder\nhint: name a file$/m],
    [
      ['--repo', 'fleet.yaml'],
      /^error: --repo fleet\.yaml: \/.*fleet\.yaml is a file\nhint: name a folder$/m,
    ],
  ])('%j', async (args, message) => {
    const result = await runCli(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe('--remote: the conf deployed on the cache host, over ssh', () => {
  let sshd: RunningSshd;
  beforeAll(async () => {
    sshd = await startSshd();
  });
  afterAll(async () => {
    await sshd.stop();
  });

  function remoteRepo(): { dir: string; deployed: string } {
    const dir = copyRepo();
    const ssh = `{ host: ${sshd.host}, port: ${sshd.port}, user: ${sshd.user}, identity_file: ${sshd.privateKeyPath}, known_hosts: ${sshd.knownHostsPath} }`;
    edit(dir, 'fleet.yaml', (text) =>
      text.replace(/sccache:\n(.*\n)*? {2}log:\n {4}node: strix\n/, (block) =>
        block.replace('    node: strix\n', `    ssh: ${ssh}\n`),
      ),
    );
    const deployed = path.join(dir, 'deployed-sccache.conf');
    cpSync(path.join(dir, '.builders/nginx-sccache.conf'), deployed);
    return { dir, deployed };
  }

  it('passes when the deployed conf is the shipped one', async () => {
    const { dir, deployed } = remoteRepo();
    const result = await runCli(
      [
        '--repo',
        dir,
        '--remote',
        '--deployed-conf',
        deployed,
        '--only',
        'nginx-log-format,nginx-deployed-conf',
        '--json',
      ],
      '/',
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(parseReport(result).results.map((entry) => [entry.pair, entry.ok])).toEqual([
      ['nginx-log-format', true],
      ['nginx-deployed-conf', true],
    ]);
  });

  it('fails naming nginx-deployed-conf when the deployed log_format drifted', async () => {
    const { dir, deployed } = remoteRepo();
    edit(dir, 'deployed-sccache.conf', (text) => text.replace('"uri":"$uri"', '"path":"$uri"'));
    const result = await runCli(['--repo', dir, '--remote', '--deployed-conf', deployed, '--json'], '/');
    expect(result.status).toBe(1);
    const report = parseReport(result);
    expect(failingPairs(report)).toEqual(['nginx-deployed-conf']);
    const problem = report.results.find((entry) => entry.pair === 'nginx-deployed-conf')?.problems[0];
    expect(problem?.message).toMatch(
      /deployed log_format has nothing where the shipped one has "uri":"\$uri"/,
    );
    expect(problem?.producer.file).toBe(`${sshd.user}@${sshd.host}:${sshd.port}:${deployed}`);
    expect(problem?.consumer.file).toBe('.builders/nginx-sccache.conf');
  });

  it('fails (not skips) when the deployed conf cannot be read', async () => {
    const { dir } = remoteRepo();
    const result = await runCli(
      [
        '--repo',
        dir,
        '--remote',
        '--deployed-conf',
        '/nonexistent/sccache.conf',
        '--only',
        'nginx-deployed-conf',
        '--json',
      ],
      '/',
    );
    expect(result.status).toBe(1);
    expect(parseReport(result).results[0]?.problems[0]?.message).toMatch(
      /could not read the deployed conf: `cat \/nonexistent\/sccache.conf` exited 1: cat: .*No such file/,
    );
  });
});
