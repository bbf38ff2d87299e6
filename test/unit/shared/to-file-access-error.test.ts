import { describe, expect, it } from 'vitest';
import { FileAccessError } from '../../../src/shared/errors.js';
import { isEnvironmentError, toFileAccessError } from '../../../src/shared/to-file-access-error.js';

// File-system errors on a path the user chose, in words: the flag, the path, what is wrong and the fix. Errors are
// built as Node raises them (code, syscall, path, dest), one per case seen on a real machine.

function errno(code: string, syscall: string, path?: string, dest?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${syscall} ${path ?? ''}`), { code, syscall, path, dest });
}

const out = { path: '/w/nope/t.json', flag: '--out', doing: 'write the trace', example: '/w/out/trace.json' };

describe('toFileAccessError', () => {
  it.each([
    [
      'a missing folder (the temp file beside the target)',
      errno('ENOENT', 'open', '/w/nope/.t.json.7.tmp'),
      '--out /w/nope/t.json: cannot write the trace: folder /w/nope does not exist',
      'create it first (mkdir -p /w/nope) or choose another place',
    ],
    [
      'a folder where the file goes (rename onto it)',
      errno('EISDIR', 'rename', '/w/.out.7.tmp', '/w/out'),
      '--out /w/nope/t.json: cannot write the trace: /w/out is a folder',
      'name a file, e.g. --out /w/out/trace.json',
    ],
    [
      'a file where a folder should be',
      errno('ENOTDIR', 'open', '/w/file.txt/.t.json.7.tmp'),
      '--out /w/nope/t.json: cannot write the trace: /w/file.txt is a file, not a folder',
      'choose a path whose folders are folders',
    ],
    [
      'permission denied in the folder',
      errno('EACCES', 'open', '/w/ro/.t.json.7.tmp'),
      '--out /w/nope/t.json: cannot write the trace: permission denied on /w/ro',
      'fix its permissions (ls -ld /w/ro) or choose another place',
    ],
    [
      'EPERM words like EACCES',
      errno('EPERM', 'mkdir', '/w/ro/p'),
      '--out /w/nope/t.json: cannot write the trace: permission denied on /w/ro',
      'fix its permissions (ls -ld /w/ro) or choose another place',
    ],
    [
      'a read-only file system',
      errno('EROFS', 'open', '/mnt/ro/.t.json.7.tmp'),
      '--out /w/nope/t.json: cannot write the trace: /mnt/ro is on a read-only file system',
      'choose a place on a writable file system',
    ],
    [
      'a full disk (a write names no path)',
      errno('ENOSPC', 'write'),
      '--out /w/nope/t.json: cannot write the trace: no space left on the device holding /w/nope/t.json',
      'free some space there (df -h /w/nope/t.json) or choose another place',
    ],
    [
      'a full disk while copying: the destination, not the source',
      errno('ENOSPC', 'copyfile', '/src/run/trace.json', '/w/nope/.import-x/trace.json'),
      '--out /w/nope/t.json: cannot write the trace: no space left on the device holding /w/nope/.import-x/trace.json',
      'free some space there (df -h /w/nope/.import-x/trace.json) or choose another place',
    ],
    [
      'recursive mkdir on a read-only mount (Node says ENOENT)',
      errno('ENOENT', 'mkdir', '/mnt/ro/p'),
      '--out /w/nope/t.json: cannot write the trace: folder /mnt/ro/p cannot be created: a folder above it is missing or read-only',
      'create it first (mkdir -p), or choose a place you can write to',
    ],
    [
      'mkdir onto a file',
      errno('EEXIST', 'mkdir', '/w/file.txt'),
      '--out /w/nope/t.json: cannot write the trace: /w/file.txt is a file, not a folder',
      'choose a folder, or a name nothing else uses',
    ],
    [
      'listing a file as a folder',
      errno('ENOTDIR', 'scandir', '/w/file.txt'),
      '--out /w/nope/t.json: cannot write the trace: /w/file.txt is a file, not a folder',
      'choose a path whose folders are folders',
    ],
  ])('%s', (_, error, message, hint) => {
    const mapped = toFileAccessError(error, out);
    expect(mapped).toBeInstanceOf(FileAccessError);
    expect(mapped).toMatchObject({ code: 'ROCMPERF_FILE_ACCESS', exitCode: 2, message, hint, cause: error });
  });

  it('names the path alone when no flag named it', () => {
    const mapped = toFileAccessError(errno('EACCES', 'open', '/runs/r1/.data.json.7.tmp'), {
      path: '/runs/r1',
      doing: 'write the report into the run dir',
    });
    expect((mapped as Error).message).toBe(
      '/runs/r1: cannot write the report into the run dir: permission denied on /runs/r1',
    );
  });

  it.each([
    ['a TypeError (a bug)', new TypeError('x is undefined')],
    ['an errno this does not know', errno('ECONNRESET', 'read')],
    ['not an Error', 'ENOENT'],
  ])('passes %s through unchanged', (_, error) => {
    expect(toFileAccessError(error, out)).toBe(error);
  });
});

describe('isEnvironmentError', () => {
  it.each([
    ['ENOSPC', true],
    ['EACCES', true],
    ['EROFS', true],
    ['EMFILE', true],
    ['ENOENT', false],
    ['EISDIR', false],
  ])('%s → %s', (code, expected) => {
    expect(isEnvironmentError(errno(code, 'open', '/x'))).toBe(expected);
  });
});
