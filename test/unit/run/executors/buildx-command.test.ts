import { describe, expect, it } from 'vitest';
import { toBakePrintCommand, toBuildxCommand } from '../../../../src/run/executors/buildx-command.js';

describe('toBuildxCommand', () => {
  it.each([
    {
      name: 'unset: docker buildx',
      binary: undefined,
      args: ['version'],
      expected: { file: 'docker', args: ['buildx', 'version'], command: 'docker buildx version' },
    },
    {
      name: 'a standalone binary: the binary with the args, no leading buildx',
      binary: '/usr/local/bin/buildx',
      args: ['version'],
      expected: {
        file: '/usr/local/bin/buildx',
        args: ['version'],
        command: '/usr/local/bin/buildx version',
      },
    },
    {
      name: 'a standalone binary: history trace',
      binary: '/opt/bx/buildx',
      args: ['history', 'trace', '--builder', 'forge', 'abc'],
      expected: {
        file: '/opt/bx/buildx',
        args: ['history', 'trace', '--builder', 'forge', 'abc'],
        command: '/opt/bx/buildx history trace --builder forge abc',
      },
    },
  ])('$name', ({ binary, args, expected }) => {
    expect(toBuildxCommand(binary, args)).toEqual(expected);
  });

  it('does not change the args it was given', () => {
    const args = ['inspect'];
    toBuildxCommand(undefined, args);
    expect(args).toEqual(['inspect']);
  });
});

describe('toBakePrintCommand', () => {
  it('prints the bake file for the targets with docker buildx or the standalone binary', () => {
    const call = { bakeFile: '/p/docker-bake.hcl', targets: ['wheels', 'pytorch'] };
    expect(toBakePrintCommand(call).command).toBe(
      'docker buildx bake -f /p/docker-bake.hcl --print wheels pytorch',
    );
    expect(toBakePrintCommand({ ...call, buildx: '/opt/bx/buildx' })).toEqual({
      file: '/opt/bx/buildx',
      args: ['bake', '-f', '/p/docker-bake.hcl', '--print', 'wheels', 'pytorch'],
      command: '/opt/bx/buildx bake -f /p/docker-bake.hcl --print wheels pytorch',
    });
  });
});
