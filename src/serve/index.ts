// The public API of serve/.
export { startServer } from './create-server.js';
