import { describe, expect, it } from 'vitest';
import { ArtifactError, FileAccessError, ParseError } from '../../../src/shared/errors.js';
import { toViewerReason } from '../../../src/shared/to-viewer-reason.js';
import { RunFileRefusedError } from '../../../src/shared/open-run-file.js';

// The few words serve shows a viewer about a run it cannot show: a file's name and what is wrong, never a path,
// a stack or a parser's message.

describe('toViewerReason', () => {
  it.each([
    [
      new ArtifactError('/srv/runs/r1/run.json', 'not JSON: Unterminated string in JSON at position 37'),
      'run.json is not valid JSON',
    ],
    [
      new ArtifactError('/srv/runs/r1/run.json', 'not a valid run file: harness: Invalid option'),
      'run.json is not in a format this rocm-perf reads',
    ],
    [new ArtifactError('/srv/runs/r1/plan.json', 'cannot read the plan: EACCES'), 'plan.json cannot be read'],
    [
      new RunFileRefusedError('/srv/runs/r1/run.json', 'a symbolic link'),
      'run.json is a link or special file, not read',
    ],
    [new ParseError('/srv/runs/r1/samples.jsonl', 12, 'bad line'), 'samples.jsonl cannot be parsed'],
    [
      Object.assign(new Error("EACCES: permission denied, open '/srv/runs/r1/zot.jsonl'"), {
        code: 'EACCES',
      }),
      'a file of the run cannot be read',
    ],
    [new FileAccessError('/srv/x', '/srv/x: cannot read'), 'its report could not be built'],
    [new TypeError("Cannot read properties of undefined (reading 'nodes')"), 'its report could not be built'],
  ])('%s → %s', (error, reason) => {
    expect(toViewerReason(error)).toBe(reason);
    expect(toViewerReason(error)).not.toContain('/srv');
  });
});
