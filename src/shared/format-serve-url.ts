// The URL `rocm-perf serve` listens at, as it prints it (an IPv6 address in brackets), and a run's page under it
// (`/runs/<stamp>/`, serve's route). One rule for serve's own line and the end-of-run summary. Pure.

export function formatServeUrl(bind: string, port: number): string {
  const host = bind.includes(':') ? `[${bind}]` : bind;
  return `http://${host}:${port}/`;
}

/** A run's page on that server. */
export function formatServeRunUrl(bind: string, port: number, stamp: string): string {
  return `${formatServeUrl(bind, port)}runs/${encodeURIComponent(stamp)}/`;
}
