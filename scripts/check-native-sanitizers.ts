// npm run test:native-sanitizers — the native line scanner under AddressSanitizer and UndefinedBehaviorSanitizer:
// compiles the sources binding.gyp lists with gcc into a temporary addon, then runs the scanner tests (which feed it
// fixtures, generated logs, odd lines and 10,000+ mutated lines per format) and the log parser tests against it,
// with the sanitizer runtime preloaded into Node. Any out-of-bounds access or undefined behaviour aborts the run.
// CI runs it after the test suite (.ci/run). Needs gcc with libasan/libubsan (Debian: gcc).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BindingSchema = z.object({
  targets: z.array(z.object({ target_name: z.string(), sources: z.array(z.string()) })).min(1),
});

/** Runs a command, inheriting stdio; exits with its status when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(
      `check-native-sanitizers: ${command} ${args.slice(0, 3).join(' ')} … failed (${result.status ?? result.error?.message})`,
    );
    process.exit(result.status ?? 1);
  }
}

const gccOutput = (flag: string) => spawnSync('gcc', [flag], { encoding: 'utf8' }).stdout.trim();

const binding = BindingSchema.parse(JSON.parse(readFileSync(path.join(root, 'binding.gyp'), 'utf8')));
const sources = binding.targets[0]?.sources ?? [];
const nodeInclude = path.join(process.env.npm_config_nodedir ?? '/usr', 'include', 'node');
const dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-sanitizers-'));
const addon = path.join(dir, 'rocm_perf_scan.node');
try {
  run('gcc', [
    '-std=gnu11',
    '-shared',
    '-fPIC',
    '-fsanitize=address,undefined',
    '-fno-sanitize-recover=all',
    '-fno-omit-frame-pointer',
    '-g',
    '-O1',
    '-ffp-contract=off',
    '-Wall',
    '-Wextra',
    '-Werror',
    '-DNAPI_VERSION=8',
    '-DNODE_GYP_MODULE_NAME=rocm_perf_scan',
    `-I${nodeInclude}`,
    ...sources,
    '-o',
    addon,
  ]);
  const libasan = gccOutput('-print-file-name=libasan.so');
  if (!path.isAbsolute(libasan) || !existsSync(libasan)) {
    console.error(
      'check-native-sanitizers: gcc has no libasan.so to preload. Fix: apt-get install gcc (libasan8).',
    );
    process.exit(1);
  }
  console.log(
    `check-native-sanitizers: ${addon} built; running the scanner and log tests with ${libasan} preloaded`,
  );
  run('npx', ['vitest', 'run', '--project', 'unit', 'test/unit/collect/native', 'test/unit/collect/logs'], {
    ...process.env,
    ROCM_PERF_NATIVE_ADDON: addon,
    ROCM_PERF_NATIVE: '1',
    LD_PRELOAD: libasan,
    // Node itself is not built with the sanitizer: its allocations are not tracked, so leak reports would be noise.
    ASAN_OPTIONS: 'detect_leaks=0:abort_on_error=1',
    UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
