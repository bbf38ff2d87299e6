import { CommanderError } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandName, CommandRunners, CommandSpec } from '../../../src/commands/flags/index.js';
import { COMMANDS } from '../../../src/commands/flags/index.js';
import { createProgram } from '../../../src/program.js';
import { UsageError } from '../../../src/shared/errors.js';

// Flag parsing through the real commander tree, with runners that only record what they were given.

afterEach(() => vi.unstubAllEnvs());

async function parse(argv: string[]): Promise<{ name: CommandName; values: Record<string, unknown> }> {
  const seen: { name: CommandName; values: Record<string, unknown> }[] = [];
  const record = (name: CommandName) => (values: object, _env: unknown) => {
    seen.push({ name, values: { ...values } });
    return Promise.resolve();
  };
  const runners = Object.fromEntries(
    (Object.keys(COMMANDS) as CommandName[]).map((name) => [name, record(name)]),
  ) as CommandRunners;
  await createProgram(runners).parseAsync(argv, { from: 'user' });
  const [call] = seen;
  if (!call) throw new Error(`no runner ran for ${argv.join(' ')}`);
  return call;
}

async function parseError(argv: string[]): Promise<UsageError> {
  const error: unknown = await parse(argv).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UsageError))
    throw new Error(`expected a UsageError from ${argv.join(' ')}, got ${String(error)}`);
  return error;
}

describe('bad flag values are usage errors (exit 2) naming the flag, the value and the fix', () => {
  it.each([
    [
      ['cold', '--sample-interval-ms', 'abc'],
      '--sample-interval-ms abc: expected a positive number of milliseconds. Use e.g. --sample-interval-ms 2000.',
    ],
    [['bench', '--sample-interval-ms', '0'], /^--sample-interval-ms 0: expected a positive number/],
    [['warm', '--sample-interval-ms', ''], /^--sample-interval-ms "": expected a positive number/],
    [['serve', '--port', 'abc'], '--port abc: expected a port number from 0 to 65535. Use e.g. --port 8090.'],
    [
      ['export', 'r1', '--otlp', 'localhost:4318'],
      '--otlp localhost:4318: expected an http:// or https:// URL of an OTLP/HTTP receiver. Use e.g. --otlp http://127.0.0.1:4318.',
    ],
    [['serve', '--port', '70000'], /^--port 70000: expected a port number from 0 to 65535\./],
    [['serve', '--port', '-1'], /^--port -1: expected a port number/],
    [
      ['serve', '--refresh-seconds', '0.1'],
      /^--refresh-seconds 0\.1: expected a number of seconds, at least 0\.5\./,
    ],
    [['serve', '--refresh-seconds', 'often'], /^--refresh-seconds often: expected a number of seconds/],
    [
      ['plan', '--strategy', 'fastest'],
      '--strategy fastest: expected one of heft-ls, heft, lpt, build-only, stages. Use e.g. --strategy heft.',
    ],
    [['warm', '--strategy', 'fastest'], /^--strategy fastest: expected one of heft-ls/],
    [
      ['warm', '--dispatch', 'smart'],
      '--dispatch smart: expected fixed or guided. Use e.g. --dispatch guided.',
    ],
    [['cold', '--dispatch', 'GUIDED'], /^--dispatch GUIDED: expected fixed or guided\./],
    [
      ['plan', '--link', 'kiln'],
      '--link kiln: expected NODE=MBPS with a positive number of MB/s. Use e.g. --link kiln=110.',
    ],
    [['plan', '--link', 'anvil=5', '--link', 'kiln=fast'], /^--link kiln=fast: expected NODE=MBPS/],
    [['plan', '--link', 'kiln=0'], /^--link kiln=0: expected NODE=MBPS/],
    [
      ['plan', '--speed', '=2'],
      /^--speed =2: expected NODE=FACTOR with a positive speed factor\. Use e\.g\. --speed kiln=1\.3\./,
    ],
    [['plan', '--drop-node', ' '], /^--drop-node " ": expected a node name\./],
    [
      ['plan', '--add-node', 'name=x,uplink=3'],
      /^--add-node name=x,uplink=3: expected name=NAME,link=MBPS\[,speed=FACTOR\]\[,builder=NAME\] with positive numbers\. Use e\.g\. --add-node name=kiln2,link=110\.$/,
    ],
    [['plan', '--add-node', 'name=x'], /^--add-node name=x: expected name=NAME,link=MBPS/],
    [['plan', '--add-node', 'link=4'], /^--add-node link=4: expected name=NAME/],
    [['plan', '--add-node', 'name=x,link=4,speed=-1'], /^--add-node name=x,link=4,speed=-1: expected/],
    [
      ['contracts', '--only', 'nginx'],
      /^--only nginx: expected a comma-separated list of nginx-log-format, .*\. Use e\.g\. --only /,
    ],
    [
      ['contracts', '--only', 'target-costs,costs'],
      /^--only target-costs,costs: expected a comma-separated list/,
    ],
    [
      ['report', '--log-level', 'loud'],
      /^--log-level loud: expected one of trace, debug, info, warn, error, silent\./,
    ],
  ] as const)('%j', async (argv, message) => {
    const error = await parseError([...argv]);
    expect(error).toMatchObject({ code: 'ROCMPERF_USAGE', exitCode: 2 });
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(error.hint).toBe(`\`rocm-perf ${argv[0]} --help\` lists every flag`);
  });

  it.each([
    [['plan', '--targets', ''], '--targets "": an empty value; e.g. --targets pytorch,vllm-wheel'],
    [['warm', '--targets', ' '], '--targets " ": an empty value; e.g. --targets pytorch,vllm-wheel'],
    [['cold', '--arch', ''], '--arch "": an empty value; e.g. --arch gfx1201'],
    [['costs', '--from', 'r', '--out', ''], '--out "": an empty value'],
  ])(
    '%j: an empty value typed on the command line is refused, not taken as "not given"',
    async (argv, message) => {
      const error = await parseError(argv);
      expect(error).toMatchObject({ code: 'ROCMPERF_USAGE', exitCode: 2, message });
      expect(error.hint).toBe(
        'leave the flag out for the default (fleet.yaml or the environment), or give it a value',
      );
    },
  );

  it('names the environment variable a bad value came from', async () => {
    vi.stubEnv('PERF_PORT', 'http');
    const error = await parseError(['serve']);
    expect(error.message).toBe(
      'PERF_PORT=http (--port): expected a port number from 0 to 65535. Use e.g. --port 8090.',
    );
  });

  it('bench takes no --dispatch (a commander error, exit 2 in cli.ts)', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const error: unknown = await parse(['bench', '--dispatch', 'guided']).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).code).toBe('commander.unknownOption');
    vi.restoreAllMocks();
  });
});

describe('good values arrive typed', () => {
  it('plan: fleet edits as numbers and nodes, targets as a list', async () => {
    const { name, values } = await parse([
      'plan',
      '--from-run',
      'r1',
      '--link',
      'kiln=110',
      '--link',
      'anvil=2.5',
      '--speed',
      'kiln=1.3',
      '--drop-node',
      'forge',
      '--add-node',
      'name=smithy,link=280,speed=2',
      '--add-node',
      'name=x,link=5,builder=x-b',
      '--targets',
      'pytorch, vllm-wheel',
      '--strategy',
      'lpt',
    ]);
    expect(name).toBe('plan');
    expect(values).toMatchObject({
      fromRun: 'r1',
      link: { kiln: 110, anvil: 2.5 },
      speed: { kiln: 1.3 },
      dropNode: ['forge'],
      addNode: [
        { name: 'smithy', builder: 'smithy', linkMbps: 280, speed: 2 },
        { name: 'x', builder: 'x-b', linkMbps: 5, speed: 1 },
      ],
      targets: ['pytorch', 'vllm-wheel'],
      strategy: 'lpt',
      compare: false,
      json: false,
    });
  });

  it('cold/warm/bench: defaults parsed to numbers and modes; bench has no dispatch', async () => {
    expect((await parse(['cold'])).values).toMatchObject({
      sampleIntervalMs: 2000,
      dispatch: 'fixed',
      fleet: 'fleet.yaml',
    });
    // An empty PERF_TARGETS (make exports unset variables as empty) means not set.
    vi.stubEnv('PERF_TARGETS', '');
    const warm = await parse(['warm', '--sample-interval-ms', '500', '--dispatch', 'guided']);
    expect(warm).toMatchObject({
      name: 'warm',
      values: { sampleIntervalMs: 500, dispatch: 'guided', targets: undefined },
    });
    const bench = await parse(['bench']);
    expect(bench.name).toBe('bench');
    expect(bench.values).not.toHaveProperty('dispatch');
  });

  it('serve: port and refresh as numbers, from flags or the environment', async () => {
    expect((await parse(['serve'])).values).toMatchObject({ port: 8090, refreshSeconds: 3, bind: '0.0.0.0' });
    vi.stubEnv('PERF_PORT', '9000');
    vi.stubEnv('PERF_BIND', '127.0.0.1');
    expect((await parse(['serve', '--refresh-seconds', '0.5'])).values).toMatchObject({
      port: 9000,
      bind: '127.0.0.1',
      refreshSeconds: 0.5,
    });
  });

  it('an empty variable is not set: the default applies (make hands unset ones down empty)', async () => {
    vi.stubEnv('PERF_FLEET', '');
    vi.stubEnv('PERF_ROOT', ' ');
    vi.stubEnv('PERF_TARGETS', '');
    vi.stubEnv('PERF_ARCH', '');
    vi.stubEnv('PERF_PORT', '');
    expect((await parse(['plan'])).values).toMatchObject({
      fleet: 'fleet.yaml',
      targets: undefined,
      arch: undefined,
    });
    expect((await parse(['report'])).values).toMatchObject({ root: '/var/tmp/rocm-perf' });
    expect((await parse(['serve'])).values).toMatchObject({ port: 8090 });
    expect((await parse(['contracts'])).values).toMatchObject({ fleet: undefined });
    vi.stubEnv('PERF_FLEET', 'fleets/x.yaml');
    expect((await parse(['plan'])).values).toMatchObject({ fleet: 'fleets/x.yaml' });
    expect((await parse(['plan', '--fleet', 'y.yaml'])).values).toMatchObject({ fleet: 'y.yaml' });
  });

  it('--root (or PERF_ROOT) is made absolute once, at parse, for every command that takes it', async () => {
    const cwd = process.cwd();
    for (const command of ['report', 'publish', 'serve', 'warm', 'plan', 'diff'] as const) {
      const argv = command === 'diff' ? ['diff', 'a', 'b'] : [command];
      expect((await parse([...argv, '--root', 'runs/here'])).values.root).toBe(`${cwd}/runs/here`);
    }
    vi.stubEnv('PERF_ROOT', 'from-env/');
    expect((await parse(['publish'])).values.root).toBe(`${cwd}/from-env`);
    await expect(parse(['report', '--root', ''])).rejects.toThrow(/^--root "": an empty value/);
  });

  it('contracts: --only as pair names; --fleet unset unless given', async () => {
    const { values } = await parse(['contracts', '--only', 'target-costs, fleet-schema']);
    expect(values).toMatchObject({ only: ['target-costs', 'fleet-schema'], fleet: undefined, remote: false });
  });

  it('arguments: report, diff and export', async () => {
    expect((await parse(['report'])).values).toMatchObject({ runDir: undefined });
    expect((await parse(['report', 'r1'])).values).toMatchObject({ runDir: 'r1' });
    expect((await parse(['diff', 'a', 'b', '--force'])).values).toMatchObject({
      runA: 'a',
      runB: 'b',
      force: true,
    });
    expect((await parse(['export', 'r1', '--perfetto'])).values).toMatchObject({ run: 'r1', perfetto: true });
    expect((await parse(['export', 'r1', '--otlp', 'http://h:4318'])).values).toMatchObject({
      run: 'r1',
      perfetto: false,
      otlp: 'http://h:4318',
      allowPartial: false,
    });
  });

  it.each(Object.keys(COMMANDS))('%s: every default passes its own schema', async (name) => {
    const required: Record<string, string[]> = {
      diff: ['a', 'b'],
      advise: ['r'],
      export: ['r'],
      costs: ['--from', 'r'],
      import: ['--lane', 'ci', 'r'],
    };
    expect((await parse([name, ...(required[name] ?? [])])).name).toBe(name);
  });
});

describe('each subcommand’s --help: examples that parse, and the environment variables it reads', () => {
  function helpOf(name: string): string {
    const command = createProgram().commands.find((c) => c.name() === name);
    if (!command) throw new Error(`no command ${name}`);
    let text = '';
    command.configureOutput({ writeOut: (chunk) => (text += chunk) });
    command.outputHelp();
    return text;
  }

  it.each(Object.keys(COMMANDS) as CommandName[])('%s', async (name) => {
    const help = helpOf(name);
    const examples = [...help.matchAll(/^ {2}\$ rocm-perf (.+)$/gm)].map((match) => match[1]!.split(' '));
    expect(examples.length).toBeGreaterThanOrEqual(1);
    for (const argv of examples) expect((await parse(argv)).name).toBe(name);
    const spec: CommandSpec = COMMANDS[name];
    const variables = [
      ...Object.values(spec.flags).flatMap((flag) => (flag?.env === undefined ? [] : [flag.env])),
      ...spec.env,
    ];
    const section = help.slice(help.indexOf('Environment variables:'));
    for (const variable of variables) expect(section).toMatch(new RegExp(`^ {2}${variable} +\\S`, 'm'));
    if (variables.length > 0)
      expect(section).toContain('(a variable set empty, e.g. `PERF_FLEET=`, is not set)');
  });

  it('cold names REGISTRY_NAME and PERF_COLD_NAMESPACE; warm and bench REGISTRY_NAME', () => {
    expect(helpOf('cold')).toMatch(/^ {2}PERF_COLD_NAMESPACE +appended to a cold run's registry namespace/m);
    for (const name of ['cold', 'warm', 'bench'])
      expect(helpOf(name)).toMatch(/^ {2}REGISTRY_NAME +the registry namespace/m);
  });
});
