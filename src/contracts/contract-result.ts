// What one producer/consumer check returns. Problems are values; the command turns them into exit code 1.

/** A place in a file; `line` is 1-based, or undefined when the file (or the missing thing) has no line. */
export interface SourceLocation {
  file: string;
  line: number | undefined;
}

export interface ContractProblem {
  message: string;
  producer: SourceLocation;
  consumer: SourceLocation;
}

export type ContractPair =
  | 'nginx-log-format'
  | 'nginx-deployed-conf'
  | 'registry-log'
  | 'target-costs'
  | 'makefile-shims'
  | 'fleet-schema'
  | 'prometheus-rules';

export interface ContractResult {
  pair: ContractPair;
  /** One line: which producer is checked against which consumer. */
  title: string;
  ok: boolean;
  /** True when the pair could not be checked (its input was not given); `notes` says why. */
  skipped: boolean;
  problems: ContractProblem[];
  /** What was checked, and anything worth knowing that is not a disagreement. */
  notes: string[];
}

export interface CreateResultOptions {
  pair: ContractPair;
  title: string;
  problems: ContractProblem[];
  notes?: string[];
  skipped?: boolean;
}

export function createContractResult({
  pair,
  title,
  problems,
  notes = [],
  skipped = false,
}: CreateResultOptions): ContractResult {
  return { pair, title, ok: problems.length === 0, skipped, problems, notes };
}

export function createSkippedResult(pair: ContractPair, title: string, reason: string): ContractResult {
  return createContractResult({ pair, title, problems: [], notes: [reason], skipped: true });
}

export function at(file: string, line?: number): SourceLocation {
  return { file, line };
}
