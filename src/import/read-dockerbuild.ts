import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { UsageError } from '../shared/errors.js';
import { buildCiRun, toSha256 } from './build-ci-run.js';
import { parseDockerbuild } from './parse-dockerbuild.js';
import { parseTarMembers } from './parse-tar-members.js';
import { buildUnsafeEntriesError } from './unsafe-entries-error.js';

// `rocm-perf import --lane ci FILE.dockerbuild`: the file is untrusted (a CI artifact). It is read whole into memory
// (at most MAX_FILE_BYTES), gunzipped with an output cap (a gzip bomb stops there), and its tar members are taken
// only as regular files of bounded size with names inside the archive; anything else refuses the whole file, each
// member named. Nothing of the archive touches the disk: the run dir is written from what was parsed.

/** Limits on what a .dockerbuild may hold (a record of a whole bake is a few MB; docs/dockerbuild.md). */
interface DockerbuildLimits {
  fileBytes: number;
  unpackedBytes: number;
  memberBytes: number;
}

const DOCKERBUILD_LIMITS: DockerbuildLimits = {
  fileBytes: 256 * 2 ** 20,
  unpackedBytes: 512 * 2 ** 20,
  memberBytes: 128 * 2 ** 20,
};

const gunzipAsync = promisify(gunzip);

const HINT =
  'export the records again with `docker buildx history export --finalize REF… -o FILE.dockerbuild`';

async function readCapped(file: string, source: string, limits: DockerbuildLimits): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > limits.fileBytes)
      throw new UsageError(
        `${source}: ${size} bytes, over the ${limits.fileBytes}-byte limit for a .dockerbuild; nothing was imported`,
        { hint: HINT },
      );
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

async function toTar(bytes: Buffer, source: string, limits: DockerbuildLimits): Promise<Buffer> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    throw new UsageError(
      `${source}: not gzip (a .dockerbuild is a gzip-compressed tar); nothing was imported`,
      {
        hint: HINT,
      },
    );
  try {
    return await gunzipAsync(bytes, { maxOutputLength: limits.unpackedBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ERR_BUFFER_TOO_LARGE'
        ? `unpacks to more than ${limits.unpackedBytes} bytes`
        : `damaged gzip (${(error as Error).message})`;
    throw new UsageError(`${source}: ${why}; nothing was imported`, { hint: HINT });
  }
}

/**
 * Reads FILE (a .dockerbuild) and writes its records as one run dir under `into`; returns that dir. Refuses a file
 * that is not a whole, safe archive of build records (UsageError naming the file and member).
 */
export async function readDockerbuild({
  file,
  source,
  into,
  limits = DOCKERBUILD_LIMITS,
}: {
  file: string;
  source: string;
  into: string;
  /** The caps (tests lower them). */
  limits?: DockerbuildLimits;
}): Promise<string> {
  const bytes = await readCapped(file, source, limits);
  const tar = parseTarMembers(await toTar(bytes, source, limits), { maxMemberBytes: limits.memberBytes });
  if (tar.unsafe.length > 0)
    throw buildUnsafeEntriesError({
      source,
      unsafe: tar.unsafe,
      what: 'a regular file of the record archive',
      hint: HINT,
    });
  if (tar.damage !== undefined)
    throw new UsageError(`${source}: ${tar.damage}; nothing was imported`, { hint: HINT });
  const records = parseDockerbuild(source, tar.files);
  const run = buildCiRun({ records, file: source, sha256: toSha256(bytes) });
  const dir = path.join(into, run.stamp);
  await mkdir(dir);
  for (const [name, text] of run.files) await writeFile(path.join(dir, name), text);
  return dir;
}
