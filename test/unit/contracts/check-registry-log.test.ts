import { describe, expect, it } from 'vitest';
import { checkRegistryLog, type FleetRegistryLog } from '../../../src/contracts/check-registry-log.js';
import { matching } from './repo-files.js';

const fleet: FleetRegistryLog = {
  fleetPath: 'fleet.yaml',
  logFormat: 'zot',
  logPath: '/var/log/zot/zot.log',
  logPathLine: 17,
  logFormatLine: 14,
};

function zotConfig(log: Record<string, unknown> | undefined): string {
  const config: Record<string, unknown> = {
    distSpecVersion: '1.1.0',
    storage: { rootDirectory: '/var/lib/zot' },
    http: { address: '0.0.0.0', port: '5000' },
  };
  if (log) config.log = log;
  return `${JSON.stringify(config, null, 2)}\n`;
}

function check(text: string, fleetLog: FleetRegistryLog = fleet) {
  return checkRegistryLog({ zotConfigText: text, zotConfigPath: 'zot/config.json', fleet: fleetLog });
}

describe('checkRegistryLog', () => {
  it.each(['info', 'debug', 'INFO', 'trace'])('agrees at level %s writing to the sliced file', (level) => {
    const result = check(zotConfig({ level, output: '/var/log/zot/zot.log' }));
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('accepts an unset level (Zot defaults to debug) and says so', () => {
    const result = check(zotConfig({ output: '/var/log/zot/zot.log' }));
    expect(result.ok).toBe(true);
    expect(result.notes).toEqual(['log.level unset: Zot defaults to debug, which keeps session lines']);
  });

  it.each(['warn', 'error', 'fatal'])('refuses level %s, at the level line, naming fleet.yaml', (level) => {
    const text = zotConfig({ level, output: '/var/log/zot/zot.log' });
    const result = check(text);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.message).toMatch(new RegExp(`log.level: .*at \`${level}\` there are none`));
    expect(result.problems[0]?.producer).toEqual({
      file: 'zot/config.json',
      line: text.split('\n').findIndex((line) => line.includes('"level"')) + 1,
    });
    expect(result.problems[0]?.consumer).toEqual({ file: 'fleet.yaml', line: 17 });
  });

  it('refuses an unknown level', () => {
    expect(
      check(zotConfig({ level: 'verbose', output: '/var/log/zot/zot.log' })).problems[0]?.message,
    ).toMatch(/`verbose` is not a Zot log level/);
  });

  it('refuses an output other than fleet.yaml registry.log.path', () => {
    const result = check(zotConfig({ level: 'info', output: '/var/log/zot.log' }));
    expect(result.problems.map((problem) => problem.message)).toEqual([
      'log.output is `/var/log/zot.log` but fleet.yaml registry.log.path is `/var/log/zot/zot.log`. Fix: make them the same file.',
    ]);
  });

  it('refuses stdout logging (no output, or no log section at all)', () => {
    expect(check(zotConfig({ level: 'info' })).problems[0]?.message).toMatch(
      /log.output is unset, so Zot logs to stdout/,
    );
    expect(check(zotConfig(undefined)).problems[0]?.message).toMatch(/log.output is unset/);
  });

  it('reads YAML configs and case-insensitive keys (viper)', () => {
    expect(check('Log:\n  Level: info\n  Output: /var/log/zot/zot.log\n').problems).toEqual([]);
  });

  it('refuses when fleet.yaml collects no registry log, or expects the distribution format', () => {
    expect(
      check(zotConfig({ level: 'info', output: '/x.log' }), { ...fleet, logPath: undefined }).problems[0]
        ?.message,
    ).toMatch(/fleet.yaml has no registry.log/);
    const result = check(zotConfig({ level: 'info', output: '/var/log/zot/zot.log' }), {
      ...fleet,
      logFormat: 'distribution',
    });
    expect(result.problems[0]).toMatchObject({
      message: matching(/log_format is `distribution`/),
      consumer: { file: 'fleet.yaml', line: 14 },
    });
  });

  it('reports a config that is not JSON or YAML, located', () => {
    const result = check('{\n  "log": {\n    "level": "info",,\n');
    expect(result.ok).toBe(false);
    expect(result.problems[0]?.producer.file).toBe('zot/config.json');
  });
});
