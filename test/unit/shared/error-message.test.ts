import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../src/shared/error-message.js';
import { formatZodIssues } from '../../../src/shared/format-zod-issues.js';

describe('errorMessage', () => {
  it.each([
    [new Error('disk full'), 'disk full'],
    ['a thrown string', 'a thrown string'],
    [{ message: 'an error-like object' }, 'an error-like object'],
    [42, '42'],
    [undefined, 'undefined'],
  ])('%o → %s', (thrown, expected) => {
    expect(errorMessage(thrown)).toBe(expected);
  });
});

describe('formatZodIssues', () => {
  const issues = [
    { path: ['nodes', 2, 'gpus'], message: 'too small' },
    { path: [], message: 'bad' },
  ];
  it('joins path: message, the top level named', () => {
    expect(formatZodIssues(issues)).toBe('nodes.2.gpus: too small; (root): bad');
    expect(formatZodIssues(issues, { limit: 1 })).toBe('nodes.2.gpus: too small');
    expect(formatZodIssues(issues, { root: '(top)', separator: '\n' })).toBe(
      'nodes.2.gpus: too small\n(top): bad',
    );
    expect(formatZodIssues([])).toBe('');
  });
});
