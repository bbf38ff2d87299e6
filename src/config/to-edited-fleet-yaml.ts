import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, parseDocument, type Pair, type YAMLMap } from 'yaml';
import { InternalError, UsageError } from '../shared/errors.js';

// `rocm-perf costs --write-fleet`: set a node's link_mbps, speed or memory_gb in fleet.yaml's text. Each value is spliced into
// the text at the place the parsed document says it is, so comments, blank lines, quoting and key order stay exactly
// as they were; a key the node lacks (speed defaults to 1) is added after its link_mbps. Pure.

export interface FleetYamlEdit {
  node: string;
  key: 'link_mbps' | 'speed' | 'memory_gb';
  value: number;
}

interface Splice {
  at: number;
  remove: number;
  insert: string;
}

export function toEditedFleetYaml(text: string, edits: readonly FleetYamlEdit[], source: string): string {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0)
    throw new UsageError(`${source}: cannot edit it: ${doc.errors[0]?.message.split('\n')[0]}`, {
      hint: 'fix the YAML first (`rocm-perf contracts --only fleet-schema` names the line)',
    });
  const splices = edits.map((edit) => toSplice(text, findNodeMap(doc.get('nodes'), edit.node, source), edit));
  let edited = text;
  for (const splice of [...splices].sort((a, b) => b.at - a.at))
    edited = edited.slice(0, splice.at) + splice.insert + edited.slice(splice.at + splice.remove);
  checkEdited({ before: text, after: edited, edits });
  return edited;
}

function findNodeMap(nodes: unknown, name: string, source: string): YAMLMap {
  const map = isSeq(nodes)
    ? nodes.items.find((item): item is YAMLMap => isMap(item) && item.get('name') === name)
    : undefined;
  if (!map)
    throw new UsageError(`${source}: no node \`${name}\` under nodes; its change cannot be written`, {
      hint: 'pass the fleet.yaml the runs were made with (--fleet FILE)',
    });
  return map;
}

const pairOf = (map: YAMLMap, key: string): Pair | undefined =>
  map.items.find((pair) => isScalar(pair.key) && pair.key.value === key);

function toSplice(text: string, map: YAMLMap, edit: FleetYamlEdit): Splice {
  const value = String(edit.value);
  const pair = pairOf(map, edit.key);
  if (pair) {
    const scalar = isScalar(pair.value) ? pair.value : undefined;
    const range = scalar?.range;
    if (!range || typeof scalar?.value !== 'number')
      throw new UsageError(`nodes[${edit.node}].${edit.key} is not a plain number; it cannot be edited`, {
        hint: `write \`${edit.key}: ${value}\` by hand`,
      });
    return { at: range[0], remove: range[1] - range[0], insert: value };
  }
  const anchor = pairOf(map, 'link_mbps') ?? map.items.at(-1);
  const keyRange = isScalar(anchor?.key) ? anchor.key.range : undefined;
  const valueEnd = isScalar(anchor?.value) ? anchor.value.range?.[1] : undefined;
  if (!keyRange || valueEnd === undefined)
    throw new InternalError(`fleet.yaml node ${edit.node}: no key to add ${edit.key} after`);
  if (map.flow) return { at: valueEnd, remove: 0, insert: `, ${edit.key}: ${value}` };
  const column = keyRange[0] - (text.lastIndexOf('\n', keyRange[0] - 1) + 1);
  const lineEnd = text.indexOf('\n', valueEnd);
  const at = lineEnd === -1 ? text.length : lineEnd;
  return { at, remove: 0, insert: `\n${' '.repeat(column)}${edit.key}: ${value}` };
}

/** The edited text must parse to the same document with exactly the edited values changed. */
function checkEdited({
  before,
  after,
  edits,
}: {
  before: string;
  after: string;
  edits: readonly FleetYamlEdit[];
}): void {
  const expected = parseDocument(before).toJS() as { nodes: Record<string, unknown>[] };
  for (const edit of edits) {
    const node = expected.nodes.find((item) => item.name === edit.node);
    if (node) node[edit.key] = edit.value;
  }
  const actual = parseDocument(after);
  if (actual.errors.length > 0 || !isDeepStrictEqual(actual.toJS(), expected))
    throw new InternalError(
      `editing fleet.yaml changed more than ${edits.map((e) => `${e.node}.${e.key}`).join(', ')}`,
    );
}
