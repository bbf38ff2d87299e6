// The public API of ssh/: one ssh connection to a host, checked against known_hosts.
export { connectSsh, formatSshLabel } from './connect-ssh.js';
