import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { z } from 'zod';

// Registry credentials as docker keeps them: `<docker config dir>/config.json` (the command resolves the dir:
// DOCKER_CONFIG, else ~/.docker),
// `auths.<host>.auth` (base64 user:pass) or username/password, or a credential helper
// (`credHelpers.<host>` / `credsStore`) asked with `docker-credential-<name> get`.

export interface RegistryCredentials {
  username: string;
  password: string;
}

const DockerConfigSchema = z.looseObject({
  auths: z
    .record(
      z.string(),
      z.looseObject({
        auth: z.string().optional(),
        username: z.string().optional(),
        password: z.string().optional(),
      }),
    )
    .optional(),
  credHelpers: z.record(z.string(), z.string()).optional(),
  credsStore: z.string().optional(),
});
type DockerConfig = z.infer<typeof DockerConfigSchema>;

/** Pure: the credentials an `auths` entry gives for `host`, matching `host`, `http(s)://host` and `…/v1/`. @internal */
export function findAuthEntry(config: DockerConfig, host: string): RegistryCredentials | undefined {
  for (const [key, entry] of Object.entries(config.auths ?? {})) {
    const keyHost = key.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
    if (keyHost !== host) continue;
    if (entry.auth) {
      const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
    }
    if (entry.username !== undefined && entry.password !== undefined)
      return { username: entry.username, password: entry.password };
  }
  return undefined;
}

async function askHelper(helper: string, host: string): Promise<RegistryCredentials | undefined> {
  const result = await execa(`docker-credential-${helper}`, ['get'], {
    input: host,
    reject: false,
    timeout: 10_000,
  });
  if (result.exitCode !== 0) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(String(result.stdout));
  } catch {
    return undefined;
  }
  const parsed = z.looseObject({ Username: z.string(), Secret: z.string() }).safeParse(raw);
  return parsed.success ? { username: parsed.data.Username, password: parsed.data.Secret } : undefined;
}

export async function loadDockerCredentials(
  host: string,
  /** DOCKER_CONFIG, else ~/.docker: resolved by the command (toHarnessEnv). */
  dockerConfigDir: string,
): Promise<RegistryCredentials | undefined> {
  const file = path.join(dockerConfigDir, 'config.json');
  let config: DockerConfig;
  try {
    const parsed = DockerConfigSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success) return undefined;
    config = parsed.data;
  } catch {
    return undefined;
  }
  const helper = config.credHelpers?.[host] ?? config.credsStore;
  return findAuthEntry(config, host) ?? (helper ? await askHelper(helper, host) : undefined);
}
