// The public API of run/registry/: image refs, docker auth and the registry client.
export { type ImageRef, parseImageRef, renderImageRef, toNamespace } from './image-ref.js';
export { loadDockerCredentials } from './read-docker-auth.js';
export { fetchManifestExists, fetchRegistryStatus } from './registry-client.js';
