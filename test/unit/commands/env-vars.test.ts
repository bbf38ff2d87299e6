import { describe, expect, it } from 'vitest';
import { listCliCommands } from '../../../src/commands/contracts.js';
import { OTHER_ENV_VARS } from '../../../src/commands/flags/index.js';
import { findEnvReads } from '../../helpers/source-tree/find-env-reads.js';
import { readSourceTree } from '../../helpers/source-tree/read-source-tree.js';
import { repoRoot } from '../contracts/repo-files.js';

// The contracts check the Makefile's exports against the environment variables the CLI declares (its flags'
// `env`, and OTHER_ENV_VARS). Only a change to our code can make that list wrong, so this test holds it against
// what our source actually reads.

const reads = findEnvReads(readSourceTree({ rootDir: repoRoot, dir: 'src', extensions: ['.ts'] }));

describe('the environment variables the CLI declares', () => {
  it('cover every variable our source reads', () => {
    const declared = listCliCommands().envVars;
    expect([...reads.keys()].filter((name) => !declared.has(name)).sort()).toEqual([]);
  });

  it('name, for the ones no flag reads, a file that reads them', () => {
    const misplaced = Object.entries(OTHER_ENV_VARS).filter(([name, file]) => !reads.get(name)?.has(file));
    expect(misplaced).toEqual([]);
  });
});
