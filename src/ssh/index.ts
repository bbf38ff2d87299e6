export { connectSsh, formatSshLabel } from './connect-ssh.js';
