// The layers of rocm-perf (docs/layers.md), checked by `npm run check:layers` (part of `npm run check`): an import
// may stay in its layer or point down, never up, and nothing imports in a circle. Which folders are pure is
// eslint's job (no-restricted-imports in eslint.config.js). CommonJS: dependency-cruiser's config convention.
const executors = '^src/(ssh|run/executors)/';
const layers = [
  { name: 'leaf', path: '^src/(artifacts|shared)/' },
  { name: 'core', path: '^src/(config|graph|collect|plan)/' },
  { name: 'run-dir', path: '^src/run-dir/' },
  { name: 'views', path: '^src/(report|diff|explain|export|trends|advise|summary)/' },
  { name: 'executors', path: executors },
  { name: 'shell', path: '^src/(run|serve|publish|contracts|costs|import)/', pathNot: executors },
  { name: 'commands', path: '^src/commands/' },
  { name: 'entry', path: '^src/(cli|program)\\.ts$' },
];

/** Layer i may not import any layer above it. */
const noUpward = layers.slice(0, -1).map((layer, index) => ({
  name: `no-upward-from-${layer.name}`,
  comment: `${layer.name} imports only its own layer and the layers below it`,
  severity: 'error',
  from: { path: layer.path, ...(layer.pathNot ? { pathNot: layer.pathNot } : {}) },
  // The shell's pattern also matches run/executors, which lies below it.
  to: {
    path: layers.slice(index + 1).map((above) => above.path),
    pathNot: layer.name === 'executors' ? executors : '^$',
  },
}));

/** The rooms of run/ serve the harness (and commands); they never reach back into it. */
const runRoomsBelowHarness = {
  name: 'run-rooms-below-harness',
  comment: 'only run/harness imports run/harness',
  severity: 'error',
  from: { path: '^src/run/', pathNot: '^src/run/harness/' },
  to: { path: '^src/run/harness/' },
};

/**
 * Load-path leaves: single-purpose files any folder may import directly, without their folder's index.ts. The CLI
 * is one esbuild bundle split per lazily loaded command (scripts/build-cli.ts), and code splitting does not
 * tree-shake per command: a module that some command uses is loaded by every command whose imports reach it, and an
 * index.ts reaches its whole folder. So these imports stay direct where going through the index would make a
 * command load a folder it does not use (docs/layers.md, Decisions, with the figures).
 */
const loadPathLeaves = [
  // start-up: the flag tables program.ts builds the commander tree from (--help)
  'artifacts/strategy-names.ts',
  'config/to-buildx-override.ts',
  'contracts/contract-pairs.ts',
  // plan, costs and import: the pure buildx pieces and the lazy loaders, not the executors (execa, ssh2)
  'run/executors/buildx-command.ts',
  'run/executors/check-buildx-binary.ts',
  'run/executors/load-lazily.ts',
  // report and advise: explain's and the advisor's replay figures, not diff's renderers
  'diff/build-explain-inputs.ts',
  'diff/build-side-figures.ts',
  // contracts: the shipped sccache format and the metric catalogue, not all of collect/ and serve/
  'collect/logs/create-shipped-sccache-parser.ts',
  'collect/logs/parse-log-format.ts',
  'collect/logs/render-shipped-sccache-module.ts',
  'serve/metrics/metric-catalog.ts',
  // the harness: the report stays lazy (harness-effects.ts); the clock alignment and the end-of-run summary's words
  // are eager
  'report/align-traces.ts',
  'report/build-partial-run-error.ts',
  'report/format-units.ts',
  'report/render-why.ts',
  'report/to-inert-markdown.ts',
  // report: ECharts loads on the report's chart thread only; publish and serve's regeneration process draw in place.
  // The thread's starter is not in report/index.ts: every command that reaches the index would load worker_threads
  'report/render-chart-svg.ts',
  'report/start-chart-thread.ts',
].map((file) => `^src/${file.replaceAll('.', '\\.')}$`);

/**
 * A folder's files are imported from another folder through its index.ts (issue 40 item 3). The unit is a top-level
 * folder of src/, and each room of run/ (run/<room>/). Inside a unit, files import each other directly. Exempt:
 * src/shared/, a leaf toolbox of independent single-purpose files (errors, logger, clock, format-units,
 * open-run-file, …): an index would make every importer load all of them (docs/layers.md, Decisions); the entry
 * files at src/'s top (cli.ts, program.ts), which are no folder's public API; and the load-path leaves above.
 */
const crossFolderThroughIndex = {
  name: 'cross-folder-through-index',
  comment:
    "another folder's files are imported through its index.ts (exempt: shared/, a leaf toolbox; the load-path leaves)",
  severity: 'error',
  from: { path: '^src/(run/[^/]+|[^/]+)/' },
  to: {
    path: '^src/',
    pathNot: [
      '^src/$1/',
      '^src/shared/',
      '^src/(run/[^/]+|[^/]+)/index\\.ts$',
      '^src/[^/]+\\.ts$',
      ...loadPathLeaves,
    ],
  },
};

/**
 * The rooms of run/harness/ on floors (docs/layers.md): a room imports only rooms on the floors below its own, and
 * only through their index.ts; run-harness.ts and harness-effects.ts, on top, import any room's index.ts.
 */
const harnessFloors = [
  ['queues'],
  ['context', 'progress'],
  ['record'],
  ['measure'],
  ['dispatch', 'finalize'],
  ['preflight'],
];
const harnessRoomsDownward = harnessFloors.flatMap((floor, index) =>
  floor.flatMap((room) => {
    const notBelow = harnessFloors
      .slice(index)
      .flat()
      .filter((other) => other !== room);
    if (notBelow.length === 0) return [];
    return [
      {
        name: `harness-${room}-imports-rooms-below`,
        comment: `run/harness/${room}/ imports only the rooms on the floors below its own`,
        severity: 'error',
        from: { path: `^src/run/harness/${room}/` },
        to: { path: notBelow.map((other) => `^src/run/harness/${other}/`) },
      },
    ];
  }),
);
const harnessRoomsThroughIndex = [
  {
    name: 'harness-rooms-through-index',
    comment: "a harness room's files are imported from another room through its index.ts",
    severity: 'error',
    from: { path: '^src/run/harness/([^/]+)/' },
    to: { path: '^src/run/harness/[^/]+/(?!index\\.ts$)', pathNot: '^src/run/harness/$1/' },
  },
  {
    name: 'harness-top-through-index',
    comment: "run-harness.ts and harness-effects.ts import a room's files through its index.ts",
    severity: 'error',
    from: { path: '^src/run/harness/[^/]+\\.ts$' },
    to: { path: '^src/run/harness/[^/]+/(?!index\\.ts$)' },
  },
  {
    name: 'harness-rooms-below-top',
    comment: 'no room imports run-harness.ts or harness-effects.ts (the top)',
    severity: 'error',
    from: { path: '^src/run/harness/[^/]+/' },
    to: { path: '^src/run/harness/[^/]+\\.ts$' },
  },
];

module.exports = {
  forbidden: [
    ...noUpward,
    runRoomsBelowHarness,
    crossFolderThroughIndex,
    ...harnessRoomsDownward,
    ...harnessRoomsThroughIndex,
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
