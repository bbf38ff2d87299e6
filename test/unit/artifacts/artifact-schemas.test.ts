import { describe, expect, it } from 'vitest';
import { readSourceTree, type SourceFile } from '../../helpers/source-tree/read-source-tree.js';
import { repoRoot } from '../contracts/repo-files.js';
import { checkArtifactSchemas } from './check-artifact-schemas.js';

// Every file one command writes for another shares one versioned schema with its readers: held on our own source
// tree (only our code changes can break it), and the checker's own cases.

const spec = [{ fileName: 'run.json', schemaExport: 'RunFileSchema' }];
const schemaModule: SourceFile = {
  path: 'src/run/run-file.ts',
  text: "import { z } from 'zod';\n\nexport const RUN_VERSION = 1;\n\nexport const RunFileSchema = z.strictObject({\n  version: z.literal(RUN_VERSION),\n  stamp: z.string(),\n});\n",
};
const writer: SourceFile = {
  path: 'src/run/write-run.ts',
  text: "import { writeFile } from 'node:fs/promises';\nimport { RUN_VERSION, type RunFile } from './run-file.js';\n\nexport async function writeRun(dir: string, stamp: string) {\n  await writeFile(`${dir}/run.json`, JSON.stringify({ version: RUN_VERSION, stamp }));\n}\n",
};
const reader: SourceFile = {
  path: 'src/report/read-run.ts',
  text: "import { readFile } from 'node:fs/promises';\nimport { RunFileSchema } from '../run/index.js';\n\nexport async function readRun(dir: string) {\n  return RunFileSchema.parse(JSON.parse(await readFile(`${dir}/run.json`, 'utf8')));\n}\n",
};
const barrel: SourceFile = {
  path: 'src/run/index.ts',
  text: "export { RunFileSchema, RUN_VERSION } from './run-file.js';\n",
};
const label: SourceFile = {
  path: 'src/report/warn.ts',
  text: "export const note = { stream: 'run.json', message: 'absent' };\n",
};

function check(sources: SourceFile[]) {
  return checkArtifactSchemas({ sources, artifacts: spec });
}

describe('checkArtifactSchemas', () => {
  it('accepts one schema module shared by writer and reader (a barrel counts; a mere label needs nothing)', () => {
    const { problems, notes, modules } = check([schemaModule, writer, reader, barrel, label]);
    expect(problems).toEqual([]);
    expect(modules).toEqual([
      {
        fileName: 'run.json',
        schemaExport: 'RunFileSchema',
        modulePath: 'src/run/run-file.ts',
        versionExport: 'RUN_VERSION',
        version: 1,
      },
    ]);
    expect(notes[0]).toBe(
      'run.json: RunFileSchema + RUN_VERSION=1 in src/run/run-file.ts; shared by src/report/read-run.ts (reader), src/run/index.ts (uses), src/run/write-run.ts (writer)',
    );
  });

  it('names a writer that bumps its own version instead of importing the shared one', () => {
    const bumped = {
      ...writer,
      text: writer.text.replace(
        "import { RUN_VERSION, type RunFile } from './run-file.js';",
        'const RUN_VERSION = 2;',
      ),
    };
    const { problems } = check([schemaModule, bumped, reader, barrel]);
    expect(
      problems.map((problem) => [problem.message.replace(/ Fix:.*/, ''), problem.producer, problem.consumer]),
    ).toEqual([
      [
        'run.json: src/run/write-run.ts (writer) has a version of its own at line 2 (`const RUN_VERSION = 2`); the shared one is RUN_VERSION = 1 in src/run/run-file.ts.',
        { file: 'src/run/write-run.ts', line: 2 },
        { file: 'src/run/run-file.ts', line: 3 },
      ],
      [
        'run.json: src/run/write-run.ts (writer) does not import src/run/run-file.ts, so it does not share RunFileSchema and RUN_VERSION.',
        { file: 'src/run/write-run.ts', line: 5 },
        { file: 'src/run/run-file.ts', line: 3 },
      ],
    ]);
  });

  it('names a reader that compares a bare version or only imports types', () => {
    const comparing = {
      ...reader,
      text: `${reader.text}export const isCurrent = (run: { version: number }) => run.version === 1;\n`,
    };
    expect(check([schemaModule, writer, comparing, barrel]).problems[0]?.message).toMatch(
      /read-run\.ts \(reader\) has a version of its own at line 7 \(`\.version === 1`\)/,
    );
    const typeOnly = {
      ...reader,
      text: reader.text
        .replace(
          "import { RunFileSchema } from '../run/index.js';",
          "import type { RunFile } from '../run/run-file.js';",
        )
        .replace('RunFileSchema.parse(', '('),
    };
    expect(check([schemaModule, writer, typeOnly]).problems[0]?.message).toMatch(
      /parses JSON but imports only types from src\/run\/run-file\.ts/,
    );
  });

  it('names a schema whose version is a bare number, or a second definition', () => {
    const bare = {
      ...schemaModule,
      text: schemaModule.text.replace('z.literal(RUN_VERSION)', 'z.literal(2)'),
    };
    expect(check([bare, writer]).problems[0]?.message).toMatch(/the version is the bare number 2/);
    const second = { path: 'src/report/run-file-copy.ts', text: schemaModule.text };
    expect(check([schemaModule, second]).problems[0]?.message).toMatch(
      /RunFileSchema is defined twice \(src\/report\/run-file-copy\.ts, src\/run\/run-file\.ts\)/,
    );
  });

  it('names a writer of an artifact that has no schema at all', () => {
    expect(check([writer]).problems[0]?.message).toMatch(
      /src\/run\/write-run\.ts \(writer\) handles it, but no module exports RunFileSchema/,
    );
    expect(check([label]).notes).toEqual(['run.json: not built yet (no RunFileSchema, no writer or reader)']);
  });

  it('holds on our source tree', () => {
    const sources = readSourceTree({
      rootDir: repoRoot,
      dir: 'src',
      extensions: ['.ts', '.js', '.mjs', '.html'],
    });
    const { problems, modules } = checkArtifactSchemas({ sources });
    expect(problems).toEqual([]);
    expect(modules.map((module) => module.fileName).sort()).toEqual([
      '.runs-index.jsonl',
      'data.json',
      'plan.json',
      'run.json',
      'samples.jsonl',
    ]);
  });
});
