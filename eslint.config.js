import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const pureFolders = [
  'src/graph/**',
  'src/plan/**',
  'src/collect/**/parse-*.ts',
  'src/collect/logs/**',
  'src/config/schema.ts',
  'src/config/resolve-config.ts',
  'src/config/rules.ts',
  'src/report/build-*.ts',
  'src/report/render-*.ts',
  'src/run-dir/find-*.ts',
  'src/diff/{build,render,format,simulate,to}-*.ts',
  'src/explain/{build,parse,price,render}-*.ts',
  'src/export/{build,find,to}-*.ts',
  'src/export/{trace-event,otlp-trace}-schema.ts',
  'src/trends/{build,render}-*.ts',
  'src/advise/{advise,build,find,parse,replay,describe}-*.ts',
  'src/summary/{build,render}-*.ts',
  'src/ssh/known-hosts.ts',
  'src/run/cache-logs/log-rotation/**',
  'src/serve/metrics/{build,render,group}-*.ts',
  'src/serve/metrics/metric-catalog.ts',
  'src/contracts/find-promql-selectors.ts',
];
const impureModules = [
  'commander',
  'node:fs',
  'node:fs/promises',
  'node:child_process',
  'node:http',
  'execa',
  'ssh2',
  'undici',
  'pino',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'fixtures/**',
      'bin/**',
      '.scratch/**',
      '.dependency-cruiser.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['src/cli.ts', 'src/commands/**', 'bench/**', 'test/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: [
      'src/graph/**',
      'src/plan/**',
      'src/config/**',
      'src/collect/**',
      'src/report/**',
      'src/run-dir/**',
      'src/run/**',
      'src/costs/**',
      'src/import/**',
      'src/diff/**',
      'src/explain/**',
      'src/export/**',
      'src/trends/**',
      'src/summary/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'commander', message: 'core folders never import commander' }] },
      ],
    },
  },
  // config/ reads files only: running a process (e.g. `docker buildx bake --print`) belongs to run/.
  {
    files: ['src/config/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['commander', 'node:child_process', 'execa', 'ssh2'].map((name) => ({
            name,
            message: 'config/ reads files only',
          })),
          patterns: [
            { group: ['**/run/**', '**/commands/**'], message: 'config/ never imports the run side' },
          ],
        },
      ],
    },
  },
  {
    files: pureFolders,
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: impureModules.map((name) => ({ name, message: 'pure module: no I/O' })) },
      ],
    },
  },
  { files: ['**/*.js', 'vitest.config.ts', 'eslint.config.js'], ...tseslint.configs.disableTypeChecked },
);
