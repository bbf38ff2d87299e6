import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildLogHostCheckCommand, LOG_HOST_TOOLS } from '../../../../src/run/cache-logs/remote-log-files.js';

// Preflight's command on the log host, run by sh here with a PATH we build: it names each tool the capture needs
// and lacks, before an hours-long run finds out at its end.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rocm-perf-loghost-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function runWithTools(tools: readonly string[], scripts: Readonly<Record<string, string>> = {}) {
  const bin = path.join(dir, 'bin');
  spawnSync('mkdir', ['-p', bin]);
  for (const tool of new Set([...tools, 'cat']))
    if (!(tool in scripts)) symlinkSync(`/usr/bin/${tool}`, path.join(bin, tool));
  for (const [tool, script] of Object.entries(scripts))
    writeFileSync(path.join(bin, tool), script, { mode: 0o755 });
  const log = path.join(dir, 'zot.jsonl');
  writeFileSync(log, 'twelve bytes');
  return spawnSync('/bin/sh', ['-c', buildLogHostCheckCommand(log)], {
    encoding: 'utf8',
    env: { PATH: bin },
  });
}

describe('buildLogHostCheckCommand', () => {
  it('with every tool: prints the log size', () => {
    const result = runWithTools(LOG_HOST_TOOLS);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('12');
    expect(result.status).toBe(0);
  });

  it('without sha256sum: exit 3, naming it', () => {
    const result = runWithTools(LOG_HOST_TOOLS.filter((tool) => tool !== 'sha256sum'));
    expect(result.status).toBe(3);
    expect(result.stderr.trim()).toBe('missing on the log host: sha256sum (the capture needs GNU coreutils)');
  });

  it('with a split that refuses --filter: exit 3, with split’s own words', () => {
    // BusyBox's split takes -b but not --filter; its message, as BusyBox v1.37 prints it.
    const busyboxSplit = `#!/bin/sh\necho "split: unrecognized option '--filter=cat'" >&2\necho 'BusyBox v1.37.0 multi-call binary.' >&2\nexit 1\n`;
    const result = runWithTools(LOG_HOST_TOOLS, { split: busyboxSplit });
    expect(result.status).toBe(3);
    expect(result.stderr.trim()).toBe(
      "missing on the log host: split--filter (the capture needs GNU coreutils; split -b 1 --filter=cat said: split: unrecognized option '--filter=cat')",
    );
  });
});
