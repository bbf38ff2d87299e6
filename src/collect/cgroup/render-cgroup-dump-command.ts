// The one remote command a step-usage poll runs on a node: a POSIX sh loop that prints, for every step container
// cgroup directly under the node's step_cgroups directory, the counter files rocm-perf reads and the command line
// of each of its processes, in one answer (parse-cgroup-dump.ts reads it). Pure: string in, string out.
// cgroup v2 is told by /sys/fs/cgroup/cgroup.controllers (a hybrid v1 host has it only under /sys/fs/cgroup/unified).

/** v1: each counter with the controller hierarchy it lives in. */
const V1_COUNTER_FILES = [
  'cpuacct/cpuacct.usage',
  'memory/memory.max_usage_in_bytes',
  'memory/memory.oom_control',
  'memory/memory.failcnt',
  'blkio/blkio.throttle.io_service_bytes',
  'pids/pids.current',
] as const;

const V2_COUNTER_FILES = [
  'cpu.stat',
  'memory.peak',
  'memory.current',
  'memory.events',
  'io.stat',
  'pids.peak',
  'pids.current',
] as const;

/** `'it'\''s'`: a POSIX shell single-quoted word. */
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export function renderCgroupDumpCommand(stepCgroups: string): string {
  const procs = [
    'for p in $(cat "$1/cgroup.procs" 2>/dev/null); do',
    'echo "@@cmdline $p"; tr "\\000\\n" "  " < "/proc/$p/cmdline" 2>/dev/null; echo;',
    'done',
  ].join(' ');
  const v2 = [
    'echo "@@cgroup v2"; [ -d "$R/$D" ] || echo "@@absent";',
    'for g in "$R/$D"/*/; do [ -d "$g" ] || continue; g=${g%/}; echo "@@group ${g##*/}";',
    `for f in ${V2_COUNTER_FILES.join(' ')}; do [ -r "$g/$f" ] && { echo "@@file $f"; cat "$g/$f"; }; done;`,
    'procs "$g"; done',
  ].join(' ');
  const v1 = [
    'echo "@@cgroup v1"; [ -d "$R/cpuacct/$D" ] || echo "@@absent";',
    'for g in "$R/cpuacct/$D"/*/; do [ -d "$g" ] || continue; g=${g%/}; n=${g##*/}; echo "@@group $n";',
    `for f in ${V1_COUNTER_FILES.join(' ')}; do c=\${f%%/*}; b=\${f#*/};`,
    '[ -r "$R/$c/$D/$n/$b" ] && { echo "@@file $b"; cat "$R/$c/$D/$n/$b"; }; done;',
    'procs "$g"; done',
  ].join(' ');
  return [
    `R=/sys/fs/cgroup; D=${quote(stepCgroups)};`,
    `procs() { ${procs}; };`,
    `if [ -f "$R/cgroup.controllers" ]; then ${v2}; else ${v1}; fi`,
  ].join(' ');
}
