import { ListenError } from '../shared/errors.js';

// Why `serve` could not listen, in the words of its flags: a port taken or reserved, an address this host does not
// have or cannot resolve. Pure: the host's addresses arrive as a parameter. Other errors come back unchanged.

export interface ListenTarget {
  bind: string;
  port: number;
  /** This host's addresses, named in the hint when --bind is not one of them. */
  hostAddresses: readonly string[];
}

function addressHint(hostAddresses: readonly string[]): string {
  const some = hostAddresses.slice(0, 6).join(', ');
  return `pass one of this host's addresses${some ? ` (${some})` : ''}, or 0.0.0.0 for every interface (--bind or PERF_BIND)`;
}

export function toListenError(error: unknown, { bind, port, hostAddresses }: ListenTarget): unknown {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  const options = { cause: error };
  switch (code) {
    case 'EADDRINUSE':
      return new ListenError(`--port ${port}: ${bind}:${port} is already in use by another program`, {
        ...options,
        hint: `stop that program (\`ss -ltnp 'sport = :${port}'\` names it), or pass another --port (PERF_PORT), e.g. --port ${port === 65535 ? 8090 : port + 1}`,
      });
    case 'EACCES':
      return new ListenError(
        `--port ${port}: not allowed to listen on ${bind}:${port} (ports below 1024 need root)`,
        { ...options, hint: 'pass a port of 1024 or above (--port or PERF_PORT), e.g. --port 8090' },
      );
    case 'EADDRNOTAVAIL':
    case 'EAFNOSUPPORT':
      return new ListenError(`--bind ${bind}: this host has no such address`, {
        ...options,
        hint: addressHint(hostAddresses),
      });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new ListenError(`--bind ${bind}: neither an IP address nor a host name this host resolves`, {
        ...options,
        hint: addressHint(hostAddresses),
      });
    default:
      return error;
  }
}
