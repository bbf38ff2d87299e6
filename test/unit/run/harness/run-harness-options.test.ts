import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InternalError } from '../../../../src/shared/errors.js';
import { startHarness, writeFleetFixture } from '../../../helpers/harness-fixture.js';

// runHarness takes its options finished (docs/layers.md, "Options are resolved once"): the command resolves --root;
// the core neither resolves it again nor guesses one.

let fixture: ReturnType<typeof writeFleetFixture>;
beforeEach(() => {
  fixture = writeFleetFixture();
});
afterEach(() => fixture.remove());

describe('runHarness options', () => {
  it('refuses a relative root (the command makes --root absolute) and creates no run dir under the cwd', async () => {
    const relative = path.relative(process.cwd(), path.join(fixture.dir, 'runs-relative'));
    expect(path.isAbsolute(relative)).toBe(false);
    const { promise } = startHarness({ fixture, options: { root: relative } });
    const error: unknown = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InternalError);
    expect((error as InternalError).message).toContain(`relative root (${relative})`);
    expect(existsSync(path.join(fixture.dir, 'runs-relative'))).toBe(false);
  });

  it('runs under the absolute root it is given', async () => {
    const root = path.join(fixture.dir, 'runs-absolute');
    const result = await startHarness({ fixture, options: { root } }).promise;
    expect(path.dirname(result.runDir)).toBe(root);
    expect(existsSync(path.join(result.runDir, 'run.json'))).toBe(true);
  });
});
