// `npm run fleet:clean`: removes namespaces, links, daemons and temp dirs left by fleet runs whose process died.
import { cleanupStaleLeftovers } from '../test/helpers/daemons/index.js';
import { cleanupStaleFleets } from '../test/fleet/index.js';

const ledgers = cleanupStaleLeftovers();
const removed = cleanupStaleFleets();
console.log(
  `fleet:clean: cleared ${ledgers} dead run ledger(s); removed ${removed.length === 0 ? 'no namespaces or links' : removed.join(', ')}`,
);
