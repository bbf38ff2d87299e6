import path from 'node:path';
import type { Client, SFTPWrapper } from 'ssh2';
import type { SshTarget } from '../config/index.js';
import { RemoteCommandError } from '../shared/errors.js';
import { connectSsh } from '../ssh/index.js';
import { parseSiteManifest, type SiteManifest } from '../artifacts/index.js';
import { buildManifest, planSiteSync, SITE_MANIFEST, type SiteFile } from './build-site.js';

// `publish --push`: the site over SFTP to fleet.yaml's `publish` target. Incremental: the remote keeps a
// manifest of content hashes, and files whose hash is unchanged are not sent. Atomic per file: each file is
// uploaded beside its destination and renamed over it (posix-rename@openssh.com), the top index.html and the
// manifest last, so a reader never gets half a file and never a manifest that claims files not yet there.

export interface PushSiteOptions {
  ssh: SshTarget;
  remotePath: string;
  files: readonly SiteFile[];
  timeoutMs?: number;
  /** The ssh agent's socket (SSH_AUTH_SOCK, handed down from the command layer); undefined: none. */
  sshAgent: string | undefined;
}

export interface PushResult {
  uploaded: string[];
  skipped: string[];
  removed: string[];
}

function sftpCall<T>(
  host: string,
  what: string,
  run: (done: (error: Error | null | undefined, value?: T) => void) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    run((error, value) =>
      error
        ? reject(
            new RemoteCommandError(
              { host, command: `sftp ${what}`, exitCode: undefined, stderrTail: error.message },
              { cause: error },
            ),
          )
        : resolve(value as T),
    );
  });
}

async function connectSftp(
  ssh: SshTarget,
  timeoutMs: number,
  agent: string | undefined,
): Promise<{ client: Client; sftp: SFTPWrapper }> {
  const client = await connectSsh(ssh, { timeoutMs, hint: 'check publish.ssh in fleet.yaml', agent });
  const sftp = await sftpCall<SFTPWrapper>(ssh.host, 'subsystem', (done) => client.sftp(done));
  return { client, sftp };
}

async function fetchRemoteManifest(sftp: SFTPWrapper, file: string): Promise<SiteManifest | undefined> {
  const text = await new Promise<string | undefined>((resolve) => {
    sftp.readFile(file, 'utf8', (error, data) => resolve(error ? undefined : String(data)));
  });
  return text === undefined ? undefined : parseSiteManifest(text);
}

async function ensureDir(sftp: SFTPWrapper, host: string, dir: string, known: Set<string>): Promise<void> {
  if (known.has(dir) || dir === '/' || dir === '.') return;
  await ensureDir(sftp, host, path.posix.dirname(dir), known);
  const exists = await new Promise<boolean>((resolve) => sftp.stat(dir, (error) => resolve(!error)));
  if (!exists) await sftpCall(host, `mkdir ${dir}`, (done) => sftp.mkdir(dir, done));
  known.add(dir);
}

async function uploadAtomic(sftp: SFTPWrapper, host: string, remote: string, content: Buffer): Promise<void> {
  const temp = `${remote}.upload-${process.pid}`;
  await sftpCall(host, `write ${temp}`, (done) => sftp.writeFile(temp, content, done));
  await sftpCall(host, `rename ${temp}`, (done) => sftp.ext_openssh_rename(temp, remote, done));
}

export async function pushSite({
  ssh,
  remotePath,
  files,
  timeoutMs = 20_000,
  sshAgent,
}: PushSiteOptions): Promise<PushResult> {
  const { client, sftp } = await connectSftp(ssh, timeoutMs, sshAgent);
  try {
    const manifest = buildManifest(files);
    const plan = planSiteSync(
      manifest,
      await fetchRemoteManifest(sftp, path.posix.join(remotePath, SITE_MANIFEST)),
    );
    const byPath = new Map(files.map((f) => [f.path, f]));
    const last = new Set(['index.html']);
    const order = [...plan.upload.filter((p) => !last.has(p)), ...plan.upload.filter((p) => last.has(p))];
    const dirs = new Set<string>();
    for (const relative of order) {
      const remote = path.posix.join(remotePath, relative);
      await ensureDir(sftp, ssh.host, path.posix.dirname(remote), dirs);
      await uploadAtomic(sftp, ssh.host, remote, byPath.get(relative)!.content);
    }
    await ensureDir(sftp, ssh.host, remotePath, dirs);
    await uploadAtomic(
      sftp,
      ssh.host,
      path.posix.join(remotePath, SITE_MANIFEST),
      Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`),
    );
    for (const relative of plan.remove) {
      await new Promise<void>((resolve) =>
        sftp.unlink(path.posix.join(remotePath, relative), () => resolve()),
      );
    }
    return { uploaded: order, skipped: plan.skip, removed: plan.remove };
  } finally {
    client.end();
  }
}
