// The public API of serve/.
export { startServer, type RunningServer, type ServeOptions } from './create-server.js';
export { SECURITY_HEADERS } from './route-request.js';
