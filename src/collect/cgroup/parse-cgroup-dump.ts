import type { CgroupRead } from '../../artifacts/index.js';

// The answer of renderCgroupDumpCommand's loop → one poll's cgroups. Pure. Lines that start with `@@` are the
// loop's own markers; every other line belongs to the counter file last named. A marker the loop never prints is
// an error (the node answered something else: a shell banner, a different script).

export interface CgroupDump {
  cgroup: 'v1' | 'v2';
  present: boolean;
  groups: CgroupRead[];
}

class CgroupDumpError extends Error {}

export function parseCgroupDump(text: string): CgroupDump {
  const lines = text.split('\n');
  const version = /^@@cgroup (v1|v2)$/.exec(lines[0] ?? '');
  if (!version) throw new CgroupDumpError(`expected '@@cgroup v1|v2' first, got ${JSON.stringify(lines[0])}`);
  const dump: CgroupDump = { cgroup: version[1] as 'v1' | 'v2', present: true, groups: [] };
  let group: CgroupRead | undefined;
  let file: string | undefined;
  for (const [index, line] of lines.entries()) {
    if (index === 0) continue;
    const marker = /^@@(\w+)(?: (.*))?$/.exec(line);
    if (!marker) {
      if (group && file !== undefined) group.files[file] = `${group.files[file] ?? ''}${line}\n`;
      else if (line !== '') throw new CgroupDumpError(`line ${index + 1}: text outside a counter file`);
      continue;
    }
    const [, kind, value = ''] = marker;
    file = undefined;
    if (kind === 'absent') dump.present = false;
    else if (kind === 'group') {
      group = { id: value, files: {}, cmdlines: [] };
      dump.groups.push(group);
    } else if (kind === 'file' && group) file = value;
    else if (kind === 'cmdline' && group) {
      // The next line is the command line (a process gone meanwhile leaves it empty); never read as a marker.
      const cmdline = lines[index + 1]?.trim() ?? '';
      if (cmdline !== '') group.cmdlines.push(cmdline);
      lines[index + 1] = '';
    } else throw new CgroupDumpError(`line ${index + 1}: unexpected ${JSON.stringify(line)}`);
  }
  return dump;
}
