export {
  BakePrintSchema,
  parseComposable,
  listTargetLinks,
  type BakePrint,
  type BakeTarget,
} from './bake-print.js';
export {
  buildGraph,
  findUnknownNames,
  listRequestableNames,
  findCycles,
  orderTopologically,
  type TargetGraph,
} from './build-graph.js';
