export {
  BAKE_PRINT_FIX,
  parseBakePrint,
  parseComposable,
  listTargetLinks,
  type BakePrint,
  type BakeTarget,
} from './bake-print-schema.js';
export { digestBakeGraph, findBakeDifferences } from './digest-bake-graph.js';
export {
  buildGraph,
  findUnknownNames,
  listRequestableNames,
  orderTopologically,
  type TargetGraph,
} from './build-graph.js';
