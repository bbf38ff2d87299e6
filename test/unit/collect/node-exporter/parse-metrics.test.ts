import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMetrics } from '../../../../src/collect/node-exporter/parse-metrics.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/node-exporter/${name}`, import.meta.url), 'utf8');

function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = parseMetrics(text).families.get(name);
  return family?.samples.find((sample) =>
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

describe('parseMetrics on a real Debian prometheus-node-exporter 1.5.0 scrape', () => {
  const text = fixture('debian-defaults-a.prom');
  const { families, stats } = parseMetrics(text, 'debian-defaults-a.prom');

  it('accounts for every line: 507 samples, 283 HELP + 283 TYPE, nothing rejected', () => {
    expect(stats).toEqual({
      source: 'debian-defaults-a.prom',
      bytes: 57585,
      lines: 1073,
      records: 507,
      skipped: 566,
      skippedByReason: { help: 283, type: 283 },
      rejected: 0,
      rejectedExamples: [],
    });
    expect(families.size).toBe(283);
  });

  it('reads values in Go float form, with types and help', () => {
    expect(families.get('node_memory_MemTotal_bytes')?.samples[0]?.value).toBe(25275990016);
    expect(families.get('node_time_seconds')?.samples[0]?.value).toBe(1796218351.0619266);
    expect(families.get('node_load1')?.samples).toEqual([
      { name: 'node_load1', labels: {}, value: 5.3, timestampMs: undefined },
    ]);
    const cpu = families.get('node_cpu_seconds_total');
    expect(cpu?.type).toBe('counter');
    expect(cpu?.help).toBe('Seconds the CPUs spent in each mode.');
    expect(cpu?.samples).toHaveLength(16);
    expect(new Set(cpu?.samples.map((sample) => sample.labels.mode))).toEqual(
      new Set(['idle', 'iowait', 'irq', 'nice', 'softirq', 'steal', 'system', 'user']),
    );
  });

  it('groups a summary with its _sum and _count samples', () => {
    const gc = families.get('go_gc_duration_seconds');
    expect(gc?.type).toBe('summary');
    expect(gc?.samples.map((sample) => sample.name)).toEqual([
      ...Array.from({ length: 5 }, () => 'go_gc_duration_seconds'),
      'go_gc_duration_seconds_sum',
      'go_gc_duration_seconds_count',
    ]);
    expect(families.has('go_gc_duration_seconds_sum')).toBe(false);
  });
});

describe('parseMetrics edge cases', () => {
  it.each([
    ['NaN', 'x NaN\n', Number.NaN],
    ['+Inf', 'x +Inf\n', Number.POSITIVE_INFINITY],
    ['-Inf', 'x -Inf\n', Number.NEGATIVE_INFINITY],
    ['exponent', 'x 5.13708655616e+11\n', 513708655616],
    ['negative exponent', 'x 1.5E-3\n', 0.0015],
    ['integer', 'x 42\n', 42],
    ['leading dot', 'x .5\n', 0.5],
  ])('value %s', (_, text, expected) => {
    expect(valueOf(text, 'x')).toBe(expected);
  });

  it('reads an optional millisecond timestamp', () => {
    const sample = parseMetrics('x{a="1"} 3 1395066363000\n').families.get('x')?.samples[0];
    expect(sample?.timestampMs).toBe(1395066363000);
  });

  it('unescapes label values and HELP text, and allows a trailing comma', () => {
    const text = '# HELP x A \\\\ help\\nline\n# TYPE x gauge\nx{path="C:\\\\dir\\"q\\"",msg="a\\nb",} 1\n';
    const family = parseMetrics(text).families.get('x');
    expect(family?.help).toBe('A \\ help\nline');
    expect(family?.samples[0]?.labels).toEqual({ path: 'C:\\dir"q"', msg: 'a\nb' });
  });

  it('groups histogram buckets, _sum and _count under the family', () => {
    const text = [
      '# TYPE h histogram',
      'h_bucket{le="0.1"} 1',
      'h_bucket{le="+Inf"} 3',
      'h_sum 0.7',
      'h_count 3',
      '',
    ].join('\n');
    const { families, stats } = parseMetrics(text);
    expect([...families.keys()]).toEqual(['h']);
    expect(families.get('h')?.samples.map((sample) => [sample.name, sample.labels.le, sample.value])).toEqual(
      [
        ['h_bucket', '0.1', 1],
        ['h_bucket', '+Inf', 3],
        ['h_sum', undefined, 0.7],
        ['h_count', undefined, 3],
      ],
    );
    expect(stats.records).toBe(4);
  });

  it('tolerates quoted UTF-8 names, in HELP/TYPE and inside the braces', () => {
    const text = '# TYPE "my.dotted.metric" gauge\n{"my.dotted.metric","a.b"="x"} 7\n';
    const family = parseMetrics(text).families.get('my.dotted.metric');
    expect(family?.type).toBe('gauge');
    expect(family?.samples[0]).toEqual({
      name: 'my.dotted.metric',
      labels: { 'a.b': 'x' },
      value: 7,
      timestampMs: undefined,
    });
  });

  it('counts unknown metric types and other comments as skipped, never throws', () => {
    const text = '# TYPE x gaugehistogram\n# just a comment\nx 1\n# EOF\n';
    const { families, stats } = parseMetrics(text);
    expect(families.get('x')?.type).toBe('untyped');
    expect(stats.skippedByReason).toEqual({ 'unknown metric type': 1, comment: 2 });
    expect(stats.records).toBe(1);
  });

  it('handles CRLF line ends and blank lines', () => {
    const { families, stats } = parseMetrics('a 1\r\n\r\nb{l="v"} 2\r\n');
    expect(families.get('a')?.samples[0]?.value).toBe(1);
    expect(families.get('b')?.samples[0]?.labels).toEqual({ l: 'v' });
    expect(stats).toMatchObject({ lines: 3, records: 2, skipped: 1, skippedByReason: { blank: 1 } });
  });

  it('rejects an unterminated last line, which may be a truncated scrape', () => {
    const { families, stats } = parseMetrics('a 1\nnode_load1 0.2');
    expect(families.has('node_load1')).toBe(false);
    expect(stats).toMatchObject({ lines: 2, records: 1, rejected: 1 });
    expect(stats.rejectedExamples).toEqual([
      { line: 2, reason: 'unterminated last line (the scrape may be truncated)' },
    ]);
  });

  it.each([
    ['no value', 'x\n', 'missing value for x'],
    ['bad value', 'x abc\n', 'invalid value "abc" for x'],
    ['hex is not a Go float', 'x 0x1f\n', 'invalid value "0x1f" for x'],
    ['bad timestamp', 'x 1 1.5\n', 'invalid timestamp "1.5" for x'],
    ['extra text', 'x 1 2 3\n', 'unexpected text after the value of x'],
    ['unterminated labels', 'x{a="b" 1\n', 'expected "," or "}" after label a'],
    ['unquoted label value', 'x{a=b} 1\n', 'label a: value must be double-quoted'],
    ['bad name character', 'x-y 1\n', 'unexpected character "-" in metric name'],
    ['no name', '{a="b"} 1\n', 'missing metric name'],
  ])('rejects %s with a reason and the line number', (_, text, reason) => {
    const { stats } = parseMetrics(`ok 1\n${text}`);
    expect(stats).toMatchObject({
      lines: 2,
      records: 1,
      rejected: 1,
      rejectedExamples: [{ line: 2, reason }],
    });
  });

  it('survives invalid UTF-8: replacement characters in a label value are kept, in a name rejected', () => {
    const bytes = Buffer.concat([
      Buffer.from('x{dev="sd'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('a"} 1\nn'),
      Buffer.from([0xc3]),
      Buffer.from(' 2\n'),
    ]);
    const { families, stats } = parseMetrics(bytes.toString('utf8'));
    expect(families.get('x')?.samples[0]?.labels.dev).toBe('sd\ufffd\ufffda');
    expect(stats).toMatchObject({ lines: 2, records: 1, rejected: 1 });
  });

  it('keeps a label named __proto__ as a plain label', () => {
    const sample = parseMetrics('x{__proto__="p"} 1\n').families.get('x')?.samples[0];
    expect(sample?.labels.__proto__).toBe('p');
    expect(Object.keys(sample?.labels ?? {})).toEqual(['__proto__']);
  });
});
