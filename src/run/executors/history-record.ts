import { z } from 'zod';
import { formatZodIssues } from '../../shared/format-zod-issues.js';
import { errorMessage } from '../../shared/error-message.js';

// `docker buildx history inspect --format json` (buildx ≥ 0.21): one record, Go field names. Read through this
// schema at the boundary. Real shapes (buildx v0.36.1, BuildKit v0.32.2): `Status` is lower-case
// (`completed`, `running`, `failed`, `canceled`; `history ls` capitalises and says `Error` for both of the
// last two); a running record has no `CompletedAt` and step counts of 0 (its trace is not readable yet);
// `Error` is `{Code, Message, Name?, Logs?, Sources?, Stack?}` with Sources/Stack base64; `Config.NoCache` is a
// boolean (`NoCacheFilter` lists stages).

const HistoryErrorSchema = z.looseObject({
  Code: z.number().int().optional(),
  Message: z.string().optional(),
  Name: z.string().optional(),
  Logs: z.array(z.string()).optional(),
  Sources: z.string().optional(),
  Stack: z.string().optional(),
});

const HistoryRecordSchema = z.looseObject({
  Ref: z.string(),
  Name: z.string().optional(),
  StartedAt: z.string().optional(),
  CompletedAt: z.string().optional(),
  /** Nanoseconds (Go `time.Duration`); while running, the time so far. */
  Duration: z.number().optional(),
  Status: z.string().transform((status) => status.toLowerCase()),
  Error: HistoryErrorSchema.optional(),
  NumCompletedSteps: z.number().int().optional(),
  NumTotalSteps: z.number().int().optional(),
  NumCachedSteps: z.number().int().optional(),
  Config: z
    .looseObject({
      NoCache: z.boolean().optional(),
      NoCacheFilter: z.array(z.string()).optional(),
    })
    .optional(),
});
/** @internal */
export type HistoryRecord = z.output<typeof HistoryRecordSchema>;

/** Pure: the record `history inspect --format json` printed, or a reason it is not one. @internal */
export function parseHistoryRecord(stdout: string): { record: HistoryRecord } | { reason: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch (error) {
    return { reason: `history inspect printed no JSON: ${errorMessage(error)}` };
  }
  const parsed = HistoryRecordSchema.safeParse(raw);
  if (parsed.success) return { record: parsed.data };
  const issue = formatZodIssues(parsed.error.issues, { limit: 1 }) || '(root): invalid';
  return { reason: `history inspect: ${issue}` };
}

/** The record is still building: its trace is not final, so `history trace` cannot have it yet. */
export function isRunningRecord(stdout: string): boolean {
  const parsed = parseHistoryRecord(stdout);
  return 'record' in parsed && parsed.record.Status === 'running';
}
