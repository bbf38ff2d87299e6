import { Command, Option } from 'commander';
import { commonFlags } from './commands/options.js';

// The commander tree only. Each action lazy-imports its command, so `--help` loads nothing heavy.

function addCommon(command: Command): Command {
  return command
    .addOption(commonFlags.fleet())
    .addOption(commonFlags.logLevel())
    .addOption(commonFlags.debug());
}

function addPlanInputs(command: Command): Command {
  return command
    .addOption(commonFlags.costs())
    .addOption(commonFlags.bakeJson())
    .addOption(commonFlags.targets())
    .addOption(commonFlags.arch());
}

/** Commander accumulator for repeatable flags. */
function collectValues(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function createProgram(): Command {
  const program = new Command('rocm-perf')
    .description(
      'Build-fleet telemetry for the ROCm wheels: plan, run instrumented builds, report, serve, publish.',
    )
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  addPlanInputs(addCommon(program.command('plan')))
    .description('place every target on a node (builds nothing)')
    .addOption(commonFlags.json())
    .option('--strategy <name>', 'placement strategy: heft-ls (default), heft, lpt, build-only, stages')
    .option('--compare', 'every strategy side by side', false)
    .option('--out <dir>', 'write plan.json into DIR')
    .option(
      '--from-run <run>',
      'what-if replay: re-simulate a recorded run dir (or a stamp under --root) with its measured costs',
    )
    .addOption(commonFlags.root())
    .option(
      '--link <node=mbps>',
      "with --from-run: set a node's upload link, MB/s (repeatable)",
      collectValues,
      [],
    )
    .option(
      '--speed <node=factor>',
      "with --from-run: set a node's build speed (repeatable)",
      collectValues,
      [],
    )
    .option(
      '--drop-node <node>',
      'with --from-run: remove a node from the fleet (repeatable)',
      collectValues,
      [],
    )
    .option(
      '--add-node <spec>',
      'with --from-run: add a node, name=NAME,link=MBPS[,speed=FACTOR] (repeatable)',
      collectValues,
      [],
    )
    .action(async (options: Record<string, unknown>) => {
      const { runPlanCommand } = await import('./commands/plan.js');
      await runPlanCommand(options as never);
    });

  addCommon(program.command('contracts'))
    .description('check every producer/consumer pair still agrees (reads files only)')
    .addOption(commonFlags.json())
    .addOption(commonFlags.costs())
    .addOption(commonFlags.bakeJson())
    .option('--repo <dir>', 'repository root holding the producer files (default: the current directory)')
    .option('--conf <file>', 'nginx sccache conf (default: .builders/nginx-sccache.conf)')
    .option('--makefile <file>', 'Makefile with the perf-* shims (default: Makefile)')
    .option('--schema-json <file>', 'shipped JSON schema of fleet.yaml (default: rocm-perf.schema.json)')
    .option('--zot-config <file>', "the registry host's Zot config, to check its log settings")
    .option('--remote', 'also fetch the nginx conf deployed on the cache host over ssh (read-only)', false)
    .option(
      '--deployed-conf <path>',
      'path of the deployed nginx conf on the cache host',
      '/etc/nginx/conf.d/sccache.conf',
    )
    .option('--only <pairs>', 'comma-separated pairs to check')
    .option('--verbose', 'print what each pair checked', false)
    .action(async (options: Record<string, unknown>, command: Command) => {
      const { runContractsCommand } = await import('./commands/contracts.js');
      await runContractsCommand(options as never, {
        fleetFromDefault: command.getOptionValueSource('fleet') === 'default',
      });
    });

  addCommon(program.command('report'))
    .description(
      'data.json, report.md with SVG charts and index.html for a run dir (default: the newest run)',
    )
    .argument('[run-dir]', 'the run dir (default: the newest under --root)')
    .addOption(commonFlags.root())
    .addOption(commonFlags.json())
    .action(async (runDir: string | undefined, options: Record<string, unknown>) => {
      const { runReportCommand } = await import('./commands/report.js');
      await runReportCommand({ ...options, runDir } as never);
    });

  const harnesses = [
    [
      'cold',
      'cold run: --no-cache, own sccache prefix, pushes into the coldrun namespace, cache export off',
      async () => (await import('./commands/cold.js')).runColdCommand,
    ],
    [
      'warm',
      'warm run: caches on, pushes, cache export kept and measured as upload',
      async () => (await import('./commands/warm.js')).runWarmCommand,
    ],
    [
      'bench',
      'one target at a time across the fleet, isolated sccache prefix: what each target costs',
      async () => (await import('./commands/bench.js')).runBenchCommand,
    ],
  ] as const;
  for (const [name, description, load] of harnesses) {
    const command = addPlanInputs(addCommon(program.command(name)))
      .description(description)
      .addOption(commonFlags.root())
      .addOption(commonFlags.json())
      .option('--strategy <name>', "placement strategy for the plan (default: the packer's)")
      .option('--plan <file>', 'run a saved plan.json instead of planning now')
      .option('--sample-interval-ms <ms>', 'node_exporter scrape interval', '2000');
    // bench is serial: nothing to dispatch.
    if (name !== 'bench') {
      command.addOption(
        new Option(
          '--dispatch <mode>',
          'fixed: each node runs its plan queue; guided: an idle node takes a ready target whose planned finish it would not delay',
        )
          .choices(['fixed', 'guided'])
          .default('fixed'),
      );
    }
    command.action(async (options: Record<string, unknown>) => {
      const run = await load();
      await run(options as never);
    });
  }

  addCommon(program.command('costs'))
    .description("derive build seconds and cache bytes from a run's traces and rewrite the target costs")
    .requiredOption('--from <run>', 'run dir (or a stamp under --root)')
    .addOption(commonFlags.root())
    .addOption(commonFlags.costs())
    .option('--out <file>', 'write here instead of the costs file fleet.yaml names')
    .option('--dry-run', 'print the new file instead of writing it', false)
    .action(async (options: Record<string, unknown>) => {
      const { runCostsCommand } = await import('./commands/costs.js');
      await runCostsCommand(options as never);
    });

  addCommon(program.command('serve'))
    .description('live chart of every run on :8090 (binds every interface unless --bind/PERF_BIND)')
    .addOption(commonFlags.root())
    .addOption(new Option('--bind <address>', 'address to listen on').env('PERF_BIND').default('0.0.0.0'))
    .addOption(new Option('--port <port>', 'port to listen on').env('PERF_PORT').default('8090'))
    .option('--refresh-seconds <s>', 'regenerate a polled run’s data.json at most this often', '3')
    .action(async (options: Record<string, unknown>) => {
      const { runServeCommand } = await import('./commands/serve.js');
      await runServeCommand(options as never);
    });

  addCommon(program.command('publish'))
    .description(
      'static site of every run (top page selects a run, newest first); --push uploads it over SFTP',
    )
    .addOption(commonFlags.root())
    .option('--out <dir>', 'where to write the site (default: <root>/.site)')
    .addOption(new Option('--push', 'upload to fleet.yaml `publish` over SFTP (also PUSH=1)').default(false))
    .action(async (options: Record<string, unknown>) => {
      const { runPublishCommand } = await import('./commands/publish.js');
      await runPublishCommand(options as never);
    });

  addCommon(program.command('diff'))
    .description(
      'what changed between two runs of the same harness: per target Δbuild, Δtotal, Δupload, Δbytes, node moves, makespan, critical path',
    )
    .argument('<run-a>', 'the earlier run: a run dir or a stamp under --root')
    .argument('<run-b>', 'the later run: a run dir or a stamp under --root')
    .addOption(commonFlags.root())
    .addOption(commonFlags.json())
    .option('--force', 'compare runs of different harnesses anyway (the output says so)', false)
    .action(async (runA: string, runB: string, options: Record<string, unknown>) => {
      const { runDiffCommand } = await import('./commands/diff.js');
      await runDiffCommand({ ...options, runA, runB } as never);
    });

  addCommon(program.command('export'))
    .description(
      'export a run for other tools: --perfetto writes a Chrome JSON trace that ui.perfetto.dev opens',
    )
    .argument('<run>', 'a run dir or a stamp under --root')
    .addOption(commonFlags.root())
    .option('--perfetto', 'Chrome Trace Event Format JSON for ui.perfetto.dev', false)
    .option('--out <file>', 'where to write (default: RUN/perfetto-trace.json; `-` for stdout)')
    .action(async (run: string, options: Record<string, unknown>) => {
      const { runExportCommand } = await import('./commands/export.js');
      await runExportCommand({ ...options, run } as never);
    });
  return program;
}
