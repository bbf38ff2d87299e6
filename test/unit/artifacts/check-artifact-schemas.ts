import { at, type ContractProblem } from '../../../src/contracts/contract-result.js';
import { escapeRegExp, findLine, toLineNumber } from '../../../src/contracts/find-line.js';
import { parseImports, stripComments, type ImportFact } from '../../helpers/source-tree/parse-imports.js';
import type { SourceFile } from '../../helpers/source-tree/read-source-tree.js';

// plan.json, run.json, samples.jsonl, data.json and the run index: one module defines each schema and its version constant, and
// every file that writes or reads the artifact imports that module. Only a change to our own code can break this,
// so a unit test holds it, from the source text alone.

interface ArtifactSpec {
  /** The file one command writes for another. */
  fileName: string;
  /** The zod schema every writer and reader shares. */
  schemaExport: string;
}

const ARTIFACTS: readonly ArtifactSpec[] = [
  { fileName: 'plan.json', schemaExport: 'PlanFileSchema' },
  { fileName: 'run.json', schemaExport: 'RunFileSchema' },
  { fileName: 'samples.jsonl', schemaExport: 'SampleSchema' },
  { fileName: 'data.json', schemaExport: 'DataFileSchema' },
  { fileName: '.runs-index.jsonl', schemaExport: 'RunIndexEntrySchema' },
];

interface ArtifactSchemaModule {
  fileName: string;
  schemaExport: string;
  modulePath: string;
  versionExport: string;
  version: number;
}

export interface CheckArtifactSchemasOptions {
  sources: readonly SourceFile[];
  artifacts?: readonly ArtifactSpec[];
}

export interface ArtifactSchemasResult {
  problems: ContractProblem[];
  /** What was checked: each artifact's schema module and who shares it. */
  notes: string[];
  modules: ArtifactSchemaModule[];
}

/** Per-file facts computed once: comment-free code and relative imports. */
interface SourceIndex {
  byPath: ReadonlyMap<string, SourceFile>;
  codeOf: (file: SourceFile) => string;
  importsOf: (file: SourceFile) => ImportFact[];
}

function createSourceIndex(sources: readonly SourceFile[]): SourceIndex {
  const code = new Map<string, string>();
  const imports = new Map<string, ImportFact[]>();
  const codeOf = (file: SourceFile) =>
    code.get(file.path) ?? code.set(file.path, stripComments(file.text)).get(file.path) ?? '';
  const importsOf = (file: SourceFile) =>
    imports.get(file.path) ?? imports.set(file.path, parseImports(file.path, file.text)).get(file.path) ?? [];
  const sorted = [...sources].sort((a, b) => a.path.localeCompare(b.path));
  return { byPath: new Map(sorted.map((file) => [file.path, file])), codeOf, importsOf };
}

interface Toucher {
  file: SourceFile;
  line: number;
  role: 'writer' | 'reader' | 'writer and reader' | 'uses';
  /** Names the schema or its version constant (so must take them from the schema module). */
  byIdentifier: boolean;
}

function findTouchers(
  index: SourceIndex,
  spec: ArtifactSpec,
  module: { path: string; versionExport?: string } | undefined,
): Toucher[] {
  const literal = new RegExp(`(['"\`])(?:[^'"\`\\n]*/)?${escapeRegExp(spec.fileName)}\\1`);
  const identifiers = [spec.schemaExport, module?.versionExport].filter(
    (name): name is string => name !== undefined,
  );
  const identifier = new RegExp(`\\b(?:${identifiers.join('|')})\\b`);
  return [...index.byPath.values()].flatMap((file) => {
    if (
      file.path === module?.path ||
      ![spec.fileName, ...identifiers].some((word) => file.text.includes(word))
    )
      return [];
    const code = index.codeOf(file);
    const named = identifier.exec(code);
    const hit = literal.exec(code) ?? named;
    if (!hit) return [];
    const writes = /\b(writeFile|appendFile|createWriteStream|writeFileSync|appendFileSync)\b/.test(code);
    const reads = /\b(readFile|readFileSync|createReadStream|JSON\.parse|safeParse|fetch)\b/.test(code);
    const role = writes && reads ? 'writer and reader' : writes ? 'writer' : reads ? 'reader' : 'uses';
    return [{ file, line: toLineNumber(code, hit.index), role, byIdentifier: named !== null }];
  });
}

function findSchemaModules(index: SourceIndex, spec: ArtifactSpec): SourceFile[] {
  const definition = new RegExp(`^\\s*export\\s+const\\s+${spec.schemaExport}\\s*[=:]`, 'm');
  return [...index.byPath.values()].filter(
    (file) => file.text.includes(spec.schemaExport) && definition.test(index.codeOf(file)),
  );
}

/** The version field must be `z.literal(CONST)` with `export const CONST = <integer>` in the same module. */
function readVersion(
  module: SourceFile,
  spec: ArtifactSpec,
  problems: ContractProblem[],
): ArtifactSchemaModule | undefined {
  const code = stripComments(module.text);
  const literals = [...code.matchAll(/\bversion\s*:\s*z\.literal\(\s*([^)\s]+)\s*\)/g)];
  const names = [...new Set(literals.map((match) => match[1] ?? ''))];
  const where = at(module.path, literals[0] ? toLineNumber(code, literals[0].index) : undefined);
  const fail = (message: string) => {
    problems.push({ message: `${spec.fileName}: ${message}`, producer: where, consumer: where });
    return undefined;
  };
  if (names.length === 0)
    return fail(
      `${spec.schemaExport} has no \`version: z.literal(CONSTANT)\` field. Fix: add one, so a reader can refuse a file of another version.`,
    );
  if (names.length > 1)
    return fail(
      `${spec.schemaExport}'s versions disagree inside ${module.path}: ${names.join(', ')}. Fix: use one exported constant.`,
    );
  const name = names[0] ?? '';
  if (/^\d/.test(name))
    return fail(
      `the version is the bare number ${name}. Fix: \`export const ${spec.fileName.replace(/\W.*$/, '').toUpperCase()}_VERSION = ${name}\` and use it in the schema, so writers and readers share it.`,
    );
  const constant = new RegExp(`^\\s*export\\s+const\\s+${escapeRegExp(name)}\\s*=\\s*(\\d+)\\s*;`, 'm').exec(
    code,
  );
  if (!constant?.[1])
    return fail(
      `the version constant ${name} is not \`export const ${name} = <integer>\` in ${module.path}. Fix: declare and export it there.`,
    );
  return {
    fileName: spec.fileName,
    schemaExport: spec.schemaExport,
    modulePath: module.path,
    versionExport: name,
    version: Number(constant[1]),
  };
}

/** True when `file` imports `modulePath` directly or through a barrel (index.ts) that re-exports it. */
function importsModule(
  file: SourceFile,
  modulePath: string,
  index: SourceIndex,
  valueOnly: boolean,
): boolean {
  return index.importsOf(file).some((fact) => {
    if (valueOnly && fact.typeOnly) return false;
    if (fact.resolved === modulePath) return true;
    const barrel = index.byPath.get(fact.resolved);
    return (
      barrel !== undefined &&
      index.importsOf(barrel).some((inner) => inner.reExport && inner.resolved === modulePath)
    );
  });
}

/** A version of its own: a `…VERSION… = <n>` constant, a bare `z.literal(<n>)` version, or `.version !== <n>`. */
const OWN_VERSION =
  /^[ \t]*(?:export\s+)?const\s+\w*VERSION\w*\s*=\s*\d|\bversion\s*:\s*z\.literal\(\s*\d|\.version\s*[!=]==?\s*\d/m;

function checkToucher(toucher: Toucher, module: ArtifactSchemaModule, index: SourceIndex): ContractProblem[] {
  const { file, line, role } = toucher;
  if (role === 'uses' && !toucher.byIdentifier) return [];
  const schemaAt = at(
    module.modulePath,
    findLine(
      index.byPath.get(module.modulePath)?.text ?? '',
      new RegExp(`\\bconst\\s+${module.versionExport}\\b`),
    ),
  );
  const [producer, consumer] =
    role === 'reader' ? [schemaAt, at(file.path, line)] : [at(file.path, line), schemaAt];
  const problems: ContractProblem[] = [];
  const code = index.codeOf(file);
  const ownVersion = OWN_VERSION.exec(code);
  if (ownVersion) {
    const ownLine = toLineNumber(code, ownVersion.index);
    const ownAt = at(file.path, ownLine);
    problems.push({
      message: `${module.fileName}: ${file.path} (${role}) has a version of its own at line ${ownLine} (\`${ownVersion[0].trim()}\`); the shared one is ${module.versionExport} = ${module.version} in ${module.modulePath}. Fix: import ${module.versionExport} from there.`,
      producer: role === 'reader' ? schemaAt : ownAt,
      consumer: role === 'reader' ? ownAt : schemaAt,
    });
  }
  if (!importsModule(file, module.modulePath, index, false)) {
    problems.push({
      message: `${module.fileName}: ${file.path} (${role}) does not import ${module.modulePath}, so it does not share ${module.schemaExport} and ${module.versionExport}. Fix: import them from there.`,
      producer,
      consumer,
    });
  } else if (
    role.includes('reader') &&
    /\bJSON\.parse\b/.test(code) &&
    !importsModule(file, module.modulePath, index, true)
  ) {
    problems.push({
      message: `${module.fileName}: ${file.path} parses JSON but imports only types from ${module.modulePath}. Fix: read it back through ${module.schemaExport}.safeParse.`,
      producer,
      consumer,
    });
  }
  return problems;
}

function checkArtifact(
  spec: ArtifactSpec,
  index: SourceIndex,
  acc: { problems: ContractProblem[]; notes: string[]; modules: ArtifactSchemaModule[] },
): void {
  const definitions = findSchemaModules(index, spec);
  if (definitions.length > 1) {
    const [first, second] = definitions as [SourceFile, SourceFile];
    acc.problems.push({
      message: `${spec.fileName}: ${spec.schemaExport} is defined twice (${definitions.map((file) => file.path).join(', ')}). Fix: keep one and import it.`,
      producer: at(first.path),
      consumer: at(second.path),
    });
    return;
  }
  if (!definitions[0]) {
    const touchers = findTouchers(index, spec, undefined).filter((toucher) => toucher.role !== 'uses');
    if (touchers.length === 0)
      acc.notes.push(`${spec.fileName}: not built yet (no ${spec.schemaExport}, no writer or reader)`);
    for (const { file, line, role } of touchers)
      acc.problems.push({
        message: `${spec.fileName}: ${file.path} (${role}) handles it, but no module exports ${spec.schemaExport}. Fix: define the schema with a version constant in one module and import it on both sides.`,
        producer: at(file.path, line),
        consumer: at(file.path, line),
      });
    return;
  }
  const module = readVersion(definitions[0], spec, acc.problems);
  if (!module) return;
  acc.modules.push(module);
  const touchers = findTouchers(index, spec, {
    path: module.modulePath,
    versionExport: module.versionExport,
  }).filter((toucher) => toucher.role !== 'uses' || toucher.byIdentifier);
  for (const toucher of touchers) acc.problems.push(...checkToucher(toucher, module, index));
  const roles = touchers.map((toucher) => `${toucher.file.path} (${toucher.role})`);
  acc.notes.push(
    `${spec.fileName}: ${spec.schemaExport} + ${module.versionExport}=${module.version} in ${module.modulePath}; shared by ${roles.length === 0 ? 'no writer or reader yet' : roles.join(', ')}`,
  );
}

// Pure: for each artifact, one schema module with one exported version constant, imported by every writer/reader.
export function checkArtifactSchemas({
  sources,
  artifacts = ARTIFACTS,
}: CheckArtifactSchemasOptions): ArtifactSchemasResult {
  const index = createSourceIndex(sources);
  const acc = {
    problems: [] as ContractProblem[],
    notes: [] as string[],
    modules: [] as ArtifactSchemaModule[],
  };
  for (const spec of artifacts) checkArtifact(spec, index, acc);
  return acc;
}
