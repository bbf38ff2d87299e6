// The public API of serve/.
export { startServer, type RunningServer, type ServeOptions } from './create-server.js';
export { routeRequest, SECURITY_HEADERS, type Route } from './route-request.js';
