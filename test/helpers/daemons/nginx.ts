// Debian's nginx (+ dav-ext) serving the shipped sccache WebDAV conf, with paths and the port rewritten into a
// temp dir. The shipped conf is included verbatim except for four textual substitutions, each of which must match.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findFreePort } from './free-port.js';
import { createPortProbe, startDaemon } from './process.js';
import { createTempDir } from './temp-dir.js';

export interface StartNginxOptions {
  /** The shipped `.builders/nginx-sccache.conf`. */
  confPath: string;
  netns?: string;
  host?: string;
  port?: number;
  /** Extra environment (e.g. a skewed clock through libfaketime). */
  env?: Record<string, string>;
}

export interface RunningNginx {
  /** `http://HOST:PORT/sccache/` */
  url: string;
  /** The sccache JSON access log. */
  logPath: string;
  /** nginx `root`: the files live under `<root>/sccache/`. */
  root: string;
  errorLogPath: string;
  /** The master's pid file (`kill -USR1 $(cat …)` reopens the logs, as logrotate's postrotate does). */
  pidPath: string;
  stop: () => Promise<void>;
}

const davExtModulePath = '/usr/lib/nginx/modules/ngx_http_dav_ext_module.so';

interface SccacheConfPaths {
  listen: string;
  root: string;
  accessLogPath: string;
}

/** Rewrites the shipped conf for a test instance; throws naming the directive if the shipped conf changed shape. */
function toTestSccacheConf(shipped: string, paths: SccacheConfPaths): string {
  const substitutions: [RegExp, string][] = [
    [/^(\s*)listen 8080;$/m, `$1listen ${paths.listen};`],
    [/^(\s*)root \/var\/lib\/sccache;$/m, `$1root ${paths.root};`],
    [
      /^(\s*)client_body_temp_path \/var\/lib\/sccache\/\.tmp;$/m,
      `$1client_body_temp_path ${path.join(paths.root, '.tmp')};`,
    ],
    [/^(\s*)access_log \S+ sccache_json;$/m, `$1access_log ${paths.accessLogPath} sccache_json;`],
  ];
  return substitutions.reduce((text, [pattern, replacement]) => {
    if (!pattern.test(text))
      throw new Error(
        `nginx-sccache.conf: expected a line matching ${String(pattern)}; update test/helpers/daemons/nginx.ts with the shipped conf`,
      );
    return text.replace(pattern, replacement);
  }, shipped);
}

function buildMainConf(dir: string, envKeys: readonly string[]): string {
  const t = (name: string) => path.join(dir, name);
  return [
    `load_module ${davExtModulePath};`,
    // nginx clears its environment but for these; libfaketime re-reads FAKETIME every few seconds.
    ...envKeys.map((key) => `env ${key};`),
    'user root;',
    'worker_processes 1;',
    `pid ${t('nginx.pid')};`,
    `error_log ${t('error.log')} info;`,
    'events { worker_connections 256; }',
    'http {',
    `  access_log ${t('access.log')};`,
    `  client_body_temp_path ${t('client_body')};`,
    `  proxy_temp_path ${t('proxy')};`,
    `  fastcgi_temp_path ${t('fastcgi')};`,
    `  uwsgi_temp_path ${t('uwsgi')};`,
    `  scgi_temp_path ${t('scgi')};`,
    `  include ${t('sccache.conf')};`,
    '}',
    '',
  ].join('\n');
}

export async function startNginx(options: StartNginxOptions): Promise<RunningNginx> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (options.netns === undefined ? await findFreePort(host) : 8080);
  const dir = createTempDir('nginx');
  const root = path.join(dir.path, 'root');
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  mkdirSync(path.join(root, 'sccache'), { recursive: true });
  const logPath = path.join(dir.path, 'sccache.json.log');
  const conf = toTestSccacheConf(readFileSync(options.confPath, 'utf8'), {
    listen: `${host}:${port}`,
    root,
    accessLogPath: logPath,
  });
  writeFileSync(path.join(dir.path, 'sccache.conf'), conf);
  const mainConf = path.join(dir.path, 'nginx.conf');
  writeFileSync(mainConf, buildMainConf(dir.path, Object.keys(options.env ?? {})));
  const errorLogPath = path.join(dir.path, 'error.log');
  const daemon = await startDaemon({
    name: 'nginx',
    command: '/usr/sbin/nginx',
    args: ['-p', dir.path, '-e', errorLogPath, '-c', mainConf, '-g', 'daemon off;'],
    netns: options.netns,
    env: { ...process.env, ...options.env },
    logPath: path.join(dir.path, 'stderr.log'),
    isReady: createPortProbe({ netns: options.netns, port }),
  }).catch((error: unknown) => {
    const errors = readFileSafe(errorLogPath);
    dir.remove();
    throw new Error(`${(error as Error).message}\nerror.log:\n${errors}`, { cause: error });
  });
  return {
    url: `http://${host}:${port}/sccache/`,
    logPath,
    root,
    errorLogPath,
    pidPath: path.join(dir.path, 'nginx.pid'),
    stop: async () => {
      await daemon.stop();
      dir.remove();
    },
  };
}

function readFileSafe(filePath: string): string {
  try {
    return readFileSync(filePath, 'utf8').trim().slice(-2000);
  } catch {
    return '(none)';
  }
}
