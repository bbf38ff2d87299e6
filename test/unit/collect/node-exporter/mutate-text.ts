// Seeded text mutations for fuzz tests: flips, deletions, insertions of syntax characters, invalid UTF-16,
// duplication and truncation. Deterministic, so a failure names a reproducible case index.
import { createRandom as createSeededRandom } from '../../../../src/shared/random.js';

/** The shared seeded PRNG (mulberry32) as a plain function. */
export const createRandom = (seed: number): (() => number) => createSeededRandom(seed).next;

const alphabet = [
  '{',
  '}',
  '"',
  '\\',
  '\n',
  '\r',
  ' ',
  '\t',
  '=',
  ',',
  ':',
  '#',
  '[',
  ']',
  '-',
  '+',
  'e',
  '.',
  '0',
  '9',
  'N',
  'I',
  '\u0000',
  '\ud800',
  'é',
  '€',
];

export function mutateText(text: string, random: () => number, edits = 1 + Math.floor(random() * 3)): string {
  let out = text;
  for (let i = 0; i < edits; i += 1) {
    const at = Math.floor(random() * (out.length + 1));
    const pick = alphabet[Math.floor(random() * alphabet.length)] ?? '';
    switch (Math.floor(random() * 6)) {
      case 0:
        out = out.slice(0, at) + pick + out.slice(at + 1);
        break;
      case 1:
        out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 8));
        break;
      case 2:
        out = out.slice(0, at) + pick + out.slice(at);
        break;
      case 3:
        out = out.slice(0, at);
        break;
      case 4:
        out = out.slice(0, at) + out.slice(Math.max(0, at - 12), at) + out.slice(at);
        break;
      default:
        out = out.slice(at) + out.slice(0, at);
    }
  }
  return out;
}
