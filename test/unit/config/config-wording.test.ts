import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseYamlWithLines } from '../../../src/config/parse-fleet-yaml.js';
import { validateConfig } from '../../../src/config/resolve-config.js';

// fleet.yaml mistakes in the user's words, on the shipped fleet.yaml with one mistake each: the key and line at
// fault, "did you mean" for a near miss, a fix that names a valid value, no validator wording, and one problem per
// YAML syntax mistake at the line the mistake is on.

const SOURCE = '/fleet/fleet.yaml';
const shipped = readFileSync(path.resolve(import.meta.dirname, '../../../fleet.yaml'), 'utf8');
const lineOf = (text: string, needle: string): number =>
  text.split('\n').findIndex((l) => l.includes(needle)) + 1;

function problems(text: string): string[] {
  const parsed = parseYamlWithLines(text, SOURCE);
  if (parsed.errors.length > 0) return parsed.errors;
  return validateConfig({ raw: parsed.value, source: SOURCE, lineOf: parsed.lineOf }).errors;
}

describe('fleet.yaml values and keys', () => {
  it('a mistyped key: one problem, did you mean, and the key it meant is not also reported missing', () => {
    const text = shipped.replace('link_mbps: 900', 'link_mpbs: 900');
    expect(problems(text)).toEqual([
      `${SOURCE}:${lineOf(text, 'link_mpbs')}: nodes[0].link_mpbs: unknown key. Fix: did you mean \`link_mbps\`? Rename it.`,
    ]);
  });

  it('an unknown key nothing is near: the keys that mapping takes', () => {
    const [problem] = problems(shipped.replace('    builder: forge', '    builder: forge\n    colour: red'));
    expect(problem).toMatch(
      /nodes\[1\]\.colour: unknown key\. Fix: remove it, or use one of name, builder, link_mbps, speed, node_exporter, ssh, address, buildkit_debug\.$/,
    );
  });

  it('link_mbps: 0 names a value that is accepted', () => {
    const text = shipped.replace('link_mbps: 4.3', 'link_mbps: 0');
    expect(problems(text)).toEqual([
      `${SOURCE}:${lineOf(text, 'link_mbps: 0')}: nodes[4].link_mbps: must be more than 0, got \`0\` (number). Fix: use a value > 0, e.g. 1.`,
    ]);
  });

  it.each([
    [
      'a mapping given a string',
      shipped.replace(/^publish:\n( {2}.*\n)+/m, 'publish: strix\n'),
      /publish: expected a mapping \(`key: value` lines\), got `"strix"` \(string\)\. Fix: write a mapping/,
    ],
    [
      'a missing key with the schema’s own words',
      shipped.replace('  url: http://registry.fleet.lan:5000\n', ''),
      /registry\.url: missing \(expected an http\(s\) URL\)\. Fix: add `url: <an http\(s\) URL>`\.$/,
    ],
    [
      'a near miss of an enum value',
      shipped.replace('log_format: zot', 'log_format: zoot'),
      /registry\.log_format: expected one of "zot", "distribution", got `"zoot"` \(string\)\. Fix: did you mean "zot"\?$/,
    ],
  ])('%s', (_, text, pattern) => {
    const found = problems(text);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(pattern);
  });

  it('never shows the validator’s own wording', () => {
    const text = shipped
      .replace('link_mbps: 900', 'link_mbps: fast')
      .replace('    builder: anvil\n', '')
      .replace('log_format: zot', 'log_format: 3')
      .replace(/^publish:\n( {2}.*\n)+/m, 'publish: strix\n');
    const found = problems(text).join('\n');
    expect(found).not.toMatch(/received|Invalid input|Too small|Invalid option|a object/);
  });
});

describe('a YAML syntax mistake: one problem, at the line of the mistake', () => {
  const edit = (needle: string, replacement: string): string => shipped.replace(needle, replacement);
  it.each([
    [
      'an unclosed [',
      edit('    builder: forge\n', '    builder: forge\n    cache_patterns: [unclosed\n'),
      'cache_patterns: [unclosed',
      'the [ opened here is never closed on this line',
    ],
    [
      'an unclosed {',
      edit('ssh: { host: forge.fleet.lan, user: builder }', 'ssh: { host: forge.fleet.lan, user: builder'),
      'ssh: { host: forge.fleet.lan, user: builder',
      'the { opened here is never closed on this line',
    ],
    [
      'an unclosed quote (noticed only at the end of the file)',
      edit('builder: anvil', 'builder: "anvil'),
      'builder: "anvil',
      'the " quote opened here is never closed',
    ],
    [
      'a tab in the indentation',
      edit('    link_mbps: 112', '\tlink_mbps: 112'),
      '\tlink_mbps: 112',
      'a tab in the indentation; indent with spaces',
    ],
    [
      'a line indented too deep (reported by YAML on the line above)',
      edit('    link_mbps: 112', '      link_mbps: 112'),
      '      link_mbps: 112',
      'indented deeper than `builder: forge` above it; align it with that key',
    ],
    [
      'no space after a colon',
      edit('    link_mbps: 112', '    link_mbps:112'),
      'link_mbps:112',
      '`link_mbps:112` needs a space after the colon',
    ],
  ])('%s', (_, text, badLine, message) => {
    const parsed = parseYamlWithLines(text, SOURCE);
    expect(parsed.errors).toEqual([`${SOURCE}:${lineOf(text, badLine)}: YAML syntax: ${message}`]);
  });

  it('a list item without its dash: one problem on that line', () => {
    const text = shipped.replace('  - name: bench', '    name: bench');
    const parsed = parseYamlWithLines(text, SOURCE);
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]).toMatch(
      new RegExp(`^${SOURCE}:${lineOf(text, '    name: bench')}: YAML syntax: .*missing \`- \``),
    );
  });
});
