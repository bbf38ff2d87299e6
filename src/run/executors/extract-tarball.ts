import { execa } from 'execa';
import { RemoteCommandError } from '../../shared/errors.js';

/** `tar -xzf FILE -C DIR`: a .tar.gz unpacked by the system's tar (GNU tar refuses absolute and `..` members). */
export async function runExtractTarball({ file, into }: { file: string; into: string }): Promise<void> {
  const result = await execa('tar', ['-xzf', file, '-C', into, '--no-same-owner'], { reject: false });
  if (result.exitCode !== 0)
    throw new RemoteCommandError(
      {
        host: 'localhost',
        command: `tar -xzf ${file} -C ${into}`,
        exitCode: result.exitCode,
        stderrTail: String(result.stderr).split('\n').slice(-5).join('\n'),
      },
      {
        hint: 'the tarball is damaged or not a gzip tar (`tar -tzf FILE` shows why): fetch it again, or import the unpacked run dir',
      },
    );
}
