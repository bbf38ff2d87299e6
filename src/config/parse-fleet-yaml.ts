import { LineCounter, parseDocument, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { locateYamlError } from './locate-yaml-error.js';

export type YamlPath = readonly PropertyKey[];

export interface ParsedYaml {
  value: unknown;
  /** Syntax errors, already located as `file:line: message`. */
  errors: string[];
  /** 1-based line of the value at `path` (or of `key` inside it), when the document has it. */
  lineOf: (path: YamlPath, key?: string) => number | undefined;
}

// Parse YAML keeping source positions, so config errors can name the line.
export function parseYamlWithLines(text: string, source: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  // One mistake, one problem: the parser's follow-on errors would only point at the wrong lines.
  const located = locateYamlError(
    text,
    doc.errors.map((error) => ({
      line: lineCounter.linePos(error.pos[0]).line,
      code: error.code,
      message: error.message.split('\n')[0] ?? error.message,
    })),
  );
  const errors = located ? [`${source}:${located.line}: YAML syntax: ${located.message}`] : [];
  const lineOf = (path: YamlPath, key?: string): number | undefined => {
    let node: unknown = doc.contents;
    for (const segment of path) {
      node = childOf(node, segment);
      if (node === undefined) return undefined;
    }
    if (key !== undefined && isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
      const keyNode = pair?.key as Node | undefined;
      if (keyNode?.range) return lineCounter.linePos(keyNode.range[0]).line;
    }
    const range = (node as Node | undefined)?.range;
    return range ? lineCounter.linePos(range[0]).line : undefined;
  };
  return { value: errors.length > 0 ? undefined : (doc.toJS() as unknown), errors, lineOf };
}

function childOf(node: unknown, segment: PropertyKey): unknown {
  if (isMap(node)) {
    const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === segment);
    return pair?.value ?? undefined;
  }
  if (isSeq(node) && typeof segment === 'number') return node.items[segment];
  return undefined;
}
