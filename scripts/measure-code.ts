// Size report for the closing notes of refactors: lines per folder of src/, and the longest files and functions.
// Usage: node --import tsx scripts/measure-code.ts [root=src] [top=10]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = process.argv[2] ?? 'src';
const top = Number(process.argv[3] ?? 10);

function listTsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listTsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function countLines(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

interface FunctionSize {
  name: string;
  file: string;
  line: number;
  lines: number;
}

function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name)
    return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

function measureFunctions(file: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const sizes: FunctionSize[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)
    ) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      sizes.push({ name: nameOf(node), file, line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sizes;
}

const files = listTsFiles(root).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
/** Every folder on the way from root to each file, with its own files and everything under it. */
const folders = new Map<string, { files: number; lines: number; allFiles: number; allLines: number }>();
for (const { file, text } of files) {
  const lines = countLines(text);
  const own = relative('.', join(file, '..'));
  for (let folder = own; ; folder = relative('.', join(folder, '..'))) {
    const entry = folders.get(folder) ?? { files: 0, lines: 0, allFiles: 0, allLines: 0 };
    const isOwn = folder === own;
    folders.set(folder, {
      files: entry.files + (isOwn ? 1 : 0),
      lines: entry.lines + (isOwn ? lines : 0),
      allFiles: entry.allFiles + 1,
      allLines: entry.allLines + lines,
    });
    if (folder === relative('.', root) || folder === '' || folder === '.') break;
  }
}

console.log(`## folders of ${root}: own files (files, lines) | with subfolders`);
for (const [folder, entry] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
  const depth = folder.split('/').length - 1;
  const own = `${entry.files} files, ${entry.lines} lines`;
  const all = entry.allFiles === entry.files ? '' : ` | ${entry.allFiles} files, ${entry.allLines} lines`;
  console.log(`${'  '.repeat(depth)}${folder.split('/').at(-1)}/  ${own}${all}`);
}
const total = files.reduce((sum, { text }) => sum + countLines(text), 0);
console.log(`total: ${files.length} files, ${total} lines`);

console.log(`\n## longest ${top} files`);
for (const { file, text } of [...files]
  .sort((a, b) => countLines(b.text) - countLines(a.text))
  .slice(0, top)) {
  console.log(`${String(countLines(text)).padStart(5)}  ${file}`);
}

console.log(`\n## longest ${top} functions`);
const functions = files.flatMap(({ file, text }) => measureFunctions(file, text));
for (const fn of functions.sort((a, b) => b.lines - a.lines).slice(0, top)) {
  console.log(`${String(fn.lines).padStart(5)}  ${fn.name}  ${fn.file}:${fn.line}`);
}
