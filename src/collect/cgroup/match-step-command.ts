// Does a step container's process run this RUN step? Pure. The vertex name shows the RUN line with build args
// expanded; the container's first process is `/bin/sh -c <the line unexpanded>` (args arrive as environment) and
// its children run the line's commands with the shell's expansion done. So a process matches when its command line,
// split into words, is the whole line (after an optional `<shell> -c`), or one of the line's commands (the words
// after `&&`, `||`, `;` or `|`, from their start); a word holding `$` matches any word (an unexpanded variable).

const SEPARATORS = new Set(['&&', '||', ';', '|']);

const toWords = (text: string) => text.trim().split(/\s+/).filter(Boolean);

const wordMatches = (process: string, line: string) => process === line || process.includes('$');

function startsWithWords(line: readonly string[], from: number, process: readonly string[]): boolean {
  if (process.length === 0 || from + process.length > line.length) return false;
  return process.every((word, index) => wordMatches(word, line[from + index] ?? ''));
}

/** The words of the line where a command starts: 0, and after each separator. */
function commandStarts(line: readonly string[]): number[] {
  const starts = [0];
  line.forEach((word, index) => {
    if (SEPARATORS.has(word)) starts.push(index + 1);
  });
  return starts;
}

export function matchesStepCommand(cmdline: string, runLine: string): boolean {
  const line = toWords(runLine);
  let process = toWords(cmdline);
  if (line.length === 0 || process.length === 0) return false;
  // `/bin/sh -c <line>`: the shell that runs the whole line.
  if (process.length > 2 && process[1] === '-c' && /(?:^|\/)(?:ba|da|a)?sh$/.test(process[0] ?? ''))
    process = process.slice(2);
  // The whole line (the command starting at word 0 and running to the end), or one command of it: the process must
  // take that command's words up to the next separator or the end.
  return commandStarts(line).some((start) => {
    if (!startsWithWords(line, start, process)) return false;
    const next = line[start + process.length];
    return next === undefined || SEPARATORS.has(next);
  });
}
