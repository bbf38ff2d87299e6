import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { createTempDir } from '../helpers/daemons/index.js';

// The shipped alert rules (contrib/prometheus/) through Debian's promtool: `check rules`, then `test rules` with
// the unit tests beside them. Then each alert's expression is broken on purpose, twice, in a temp copy: made to
// never fire (its firing cases must fail) and made to fire on every series it reads (its not-firing cases must
// fail). A rule test that passes either way would show nothing.

const promtool = '/usr/bin/promtool';
const contrib = path.resolve(import.meta.dirname, '../../contrib/prometheus');
const rulesFile = path.join(contrib, 'rocm-perf-rules.yml');
const testsFile = path.join(contrib, 'rocm-perf-rules.test.yml');
const temp = createTempDir('prometheus-rules');
afterAll(() => temp.remove());

function runPromtool(args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(promtool, args, { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

interface AlertRule {
  alert: string;
  expr: string;
}

function readAlerts(): AlertRule[] {
  const doc = parseDocument(readFileSync(rulesFile, 'utf8')).toJS() as {
    groups: { rules: { alert?: string; expr: string }[] }[];
  };
  return doc.groups.flatMap((group) =>
    group.rules.flatMap((rule) => (rule.alert === undefined ? [] : [{ alert: rule.alert, expr: rule.expr }])),
  );
}

/** The rules with one alert's expression replaced; promtool's unit tests run against the copy. */
function runTestsWithExpr(alert: string, expr: string): { status: number | null; output: string } {
  const doc = parseDocument(readFileSync(rulesFile, 'utf8'));
  const groups = doc.get('groups') as { items: { get(key: string): { items: unknown[] } }[] };
  let replaced = 0;
  for (const group of groups.items)
    for (const rule of group.get('rules').items as {
      get(k: string): unknown;
      set(k: string, v: string): void;
    }[])
      if (rule.get('alert') === alert) {
        rule.set('expr', expr);
        replaced += 1;
      }
  expect(replaced).toBe(1);
  const dir = path.join(temp.path, alert);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'rocm-perf-rules.yml'), doc.toString());
  copyFileSync(testsFile, path.join(dir, 'rocm-perf-rules.test.yml'));
  return runPromtool(['test', 'rules', 'rocm-perf-rules.test.yml'], dir);
}

/** The first series an expression reads: made the whole expression, the alert fires on every one of its series. */
function firstSeries(expr: string): string {
  const name = /\brocm_perf_[a-z_]+/.exec(expr)?.[0];
  if (name === undefined) throw new Error(`no rocm_perf series in ${expr}`);
  return name;
}

describe('contrib/prometheus rules', () => {
  it('pass promtool check rules', () => {
    const { status, output } = runPromtool(['check', 'rules', rulesFile], contrib);
    expect(output).toContain('SUCCESS');
    expect(status).toBe(0);
  });

  it('pass their promtool unit tests', () => {
    const { status, output } = runPromtool(['test', 'rules', 'rocm-perf-rules.test.yml'], contrib);
    expect(output).toContain('SUCCESS');
    expect(status).toBe(0);
  });

  const alerts = readAlerts();
  it('ship the five alerts the issue asks for (and the sccache twin of the hit-ratio one)', () => {
    expect(alerts.map((a) => a.alert).sort()).toEqual([
      'RocmPerfLaneStale',
      'RocmPerfLayerCacheHitRatioDropped',
      'RocmPerfMakespanRegressed',
      'RocmPerfNodeUploadSlow',
      'RocmPerfOutsideForecast',
      'RocmPerfSccacheHitRatioDropped',
    ]);
  });

  it.each(alerts)('$alert: its unit tests fail when it can never fire', ({ alert }) => {
    const { status, output } = runTestsWithExpr(alert, 'vector(1) > 2');
    expect(status).toBe(1);
    // A case that expected the alert got none.
    expect(output).toMatch(
      new RegExp(`alertname: ${alert}, time: [0-9hms]+, \\n\\s+exp:\\[\\n[^]*?got:\\[\\]`),
    );
  });

  it.each(alerts)('$alert: its unit tests fail when it fires on every series it reads', ({ alert, expr }) => {
    const { status, output } = runTestsWithExpr(alert, firstSeries(expr));
    expect(status).toBe(1);
    // A case that expected no alert got some.
    expect(output).toMatch(
      new RegExp(`alertname: ${alert}, time: [0-9hms]+, \\n\\s+exp:\\[\\], \\n\\s+got:\\[\\n`),
    );
  });
});
