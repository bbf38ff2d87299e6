// Where the real build engine lives: the pinned releases of test/tools/versions.txt, built by
// test/tools/build-tools.sh into a cache folder, and the box's own compile step (box-compile/, Go, standard library
// only), built here on first use. A missing tool fails with the command that builds it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

const here = import.meta.dirname;
export const toolsDir = process.env.ROCM_PERF_TOOLS ?? path.join(homedir(), '.cache/rocm-perf/tools');
const versionsPath = path.resolve(here, '../../tools/versions.txt');
const buildToolsCommand = 'test/tools/build-tools.sh';

/** `otlp`: the trace backend `export --otlp` is tested against (Jaeger), not part of the box's engine. */
export type ToolRole = 'current' | 'oldest' | 'too-old' | 'otlp';
export type ToolName = 'buildkit' | 'buildx' | 'jaeger';

export interface PinnedTool {
  role: ToolRole;
  name: ToolName;
  version: string;
}

/** The pinned tool builds, in file order. */
export function readPinnedTools(text = readFileSync(versionsPath, 'utf8')): PinnedTool[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [role, name, , version] = line.split(/\s+/);
      return { role: role as ToolRole, name: name as ToolName, version: version! };
    });
}

/** The version pinned for a role (`current` BuildKit, `oldest` buildx, …). */
export function pinnedVersion(name: ToolName, role: ToolRole): string {
  const tool = readPinnedTools().find((candidate) => candidate.name === name && candidate.role === role);
  if (!tool) throw new Error(`test/tools/versions.txt pins no ${role} ${name}`);
  return tool.version;
}

/** The path of a built binary (`buildkitd`, `buildctl`, `buildx`, `jaeger`) of a pinned release. */
export function findToolBinary(name: ToolName, version: string, binary: string): string {
  const file = path.join(toolsDir, `${name}-${version}`, binary);
  if (!existsSync(file))
    throw new Error(
      `${binary} ${version} is not built (${file} is missing); run: ${buildToolsCommand} (Go at /usr/local/go, the Go module proxy; a few minutes the first time)`,
    );
  return file;
}

/** A one-line reason the real engine cannot run here, or undefined. */
export function findEngineBlocker(): string | undefined {
  if (!existsSync('/usr/sbin/runc') && !existsSync('/usr/bin/runc'))
    return 'the real BuildKit in the box needs runc; run: apt-get install -y runc';
  if (!existsSync('/bin/busybox'))
    return 'the box base image needs busybox; run: apt-get install -y busybox-static';
  for (const tool of readPinnedTools().filter((candidate) => candidate.role === 'current')) {
    const binary = tool.name === 'buildx' ? 'buildx' : 'buildkitd';
    if (!existsSync(path.join(toolsDir, `${tool.name}-${tool.version}`, binary)))
      return `${binary} ${tool.version} is not built; run: ${buildToolsCommand}`;
  }
  return undefined;
}

/** box-compile, built from its source into the tools cache (keyed by the source's digest). */
export function buildBoxCompile(): string {
  const source = path.join(here, 'box-compile');
  const digest = createHash('sha256')
    .update(readFileSync(path.join(source, 'main.go')))
    .update(readFileSync(path.join(source, 'go.mod')))
    .digest('hex')
    .slice(0, 12);
  const dir = path.join(toolsDir, `box-compile-${digest}`);
  const binary = path.join(dir, 'box-compile');
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const go = existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go';
  execFileSync(go, ['build', '-trimpath', '-ldflags=-s -w', '-o', `${binary}.tmp`, '.'], {
    cwd: source,
    env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  renameSync(`${binary}.tmp`, binary);
  return binary;
}
