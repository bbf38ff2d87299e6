// Errors the double reports the way buildx does: `ERROR: <message>` on stderr, exit 1.

export class CliError extends Error {}

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
  statePath: () => string;
  isStdoutTty: boolean;
}
