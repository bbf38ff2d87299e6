// The daemon behind each box node's /proc: every 100 ms it reads the node's cgroup counters and rewrites the
// node's stat, meminfo and loadavg (atomically, by rename) in the directory its node_exporter reads as
// `--path.procfs`. The other /proc entries node_exporter reads are links to the real ones (net → the reader's own
// network namespace). Started by start-fleet.ts as `node <bundle> <config.json>`.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  advanceNodeProc,
  createNodeProcState,
  parseCpuacctStat,
  parseMemoryStat,
  renderProcLoadavg,
  renderProcMeminfo,
  renderProcStat,
  type CgroupCounters,
  type NodeProcState,
} from './node-proc.js';

export interface NodeProcConfig {
  bootMs: number;
  intervalMs: number;
  nodes: {
    name: string;
    procDir: string;
    cpuacctDir: string;
    memoryDir: string;
    quotaCores: number;
    memoryLimitBytes: number;
  }[];
}

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');

function readCounters(node: NodeProcConfig['nodes'][number]): CgroupCounters {
  return {
    usageNs: Number(read(node.cpuacctDir, 'cpuacct.usage')),
    ...parseCpuacctStat(read(node.cpuacctDir, 'cpuacct.stat')),
    memoryUsageBytes: Number(read(node.memoryDir, 'memory.usage_in_bytes')),
    memoryStat: parseMemoryStat(read(node.memoryDir, 'memory.stat')),
  };
}

function writeAtomically(dir: string, name: string, text: string): void {
  const temp = path.join(dir, `.${name}.tmp`);
  writeFileSync(temp, text);
  renameSync(temp, path.join(dir, name));
}

function main(configPath: string): void {
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as NodeProcConfig;
  const states = new Map<string, NodeProcState>(
    config.nodes.map((node) => [node.name, createNodeProcState({ bootMs: config.bootMs, ...node })]),
  );
  const tick = () => {
    const atMs = Date.now();
    for (const node of config.nodes) {
      const state = advanceNodeProc(states.get(node.name)!, readCounters(node), atMs);
      states.set(node.name, state);
      writeAtomically(node.procDir, 'stat', renderProcStat(state));
      writeAtomically(node.procDir, 'meminfo', renderProcMeminfo(state));
      writeAtomically(node.procDir, 'loadavg', renderProcLoadavg(state));
    }
  };
  tick();
  setInterval(tick, config.intervalMs);
}

main(process.argv[2] ?? '');
