import type * as Undici from 'undici';

// undici's `request`, loaded on its first call. Commands that never touch the network (report, plan, diff) then
// never load undici's 1.2 MB, although the collect/ barrel they import re-exports the HTTP readers (issue 36
// item 10; the CLI bundle puts the dynamic import in a chunk of its own, scripts/build-cli.ts).

export async function request(
  ...args: Parameters<typeof Undici.request>
): Promise<Awaited<ReturnType<typeof Undici.request>>> {
  const undici = await import('undici');
  return undici.request(...args);
}
