// The common sample line of a node_exporter scrape, read in one pass with charCodeAt: `name value` or
// `name{label="value",…} value`, single spaces, label values without escapes, no timestamp. Anything else returns
// undefined and parseMetrics uses parseSampleLine, which reads every form; on the lines this path accepts both give
// the same sample (tested on the real scrapes and on mutated lines).
import type { MetricSample } from './parse-sample-line.js';
import { parseGoFloat } from './parse-sample-line.js';

const isNameStart = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
const isNameChar = (code: number) => isNameStart(code) || (code >= 48 && code <= 57);

/** End of the label set opening at `open` (index after `}`), filling `labels`; -1 when not the simple form. */
function readSimpleLabels(line: string, open: number, labels: Record<string, string>): number {
  let pos = open + 1;
  while (line.charCodeAt(pos) !== 125) {
    const nameStart = pos;
    if (!isNameStart(line.charCodeAt(pos))) return -1;
    while (isNameChar(line.charCodeAt(++pos)));
    if (line.charCodeAt(pos) !== 61 || line.charCodeAt(pos + 1) !== 34) return -1;
    const valueStart = pos + 2;
    const close = line.indexOf('"', valueStart);
    if (close < 0) return -1;
    const escape = line.indexOf('\\', valueStart);
    if (escape >= 0 && escape < close) return -1;
    labels[line.slice(nameStart, pos)] = line.slice(valueStart, close);
    pos = close + 1;
    if (line.charCodeAt(pos) === 44) pos++;
    else if (line.charCodeAt(pos) !== 125) return -1;
  }
  return pos + 1;
}

/** The sample of a simple line, or undefined (use parseSampleLine). */
export function parseSimpleSample(line: string): MetricSample | undefined {
  let pos = 0;
  const first = line.charCodeAt(0);
  if (!isNameStart(first) && first !== 58) return undefined;
  for (let code = line.charCodeAt(++pos); isNameChar(code) || code === 58; code = line.charCodeAt(++pos));
  const name = line.slice(0, pos);
  const labels = Object.create(null) as Record<string, string>;
  if (line.charCodeAt(pos) === 123) pos = readSimpleLabels(line, pos, labels);
  if (pos < 0 || line.charCodeAt(pos) !== 32) return undefined;
  const token = line.slice(pos + 1);
  if (token === '' || token.includes(' ') || token.includes('\t')) return undefined;
  const value = parseGoFloat(token);
  return value === undefined ? undefined : { name, labels, value, timestampMs: undefined };
}
