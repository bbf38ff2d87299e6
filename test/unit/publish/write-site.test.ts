import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '../../helpers/daemons/index.js';
import { SITE_MANIFEST, type SiteFile } from '../../../src/publish/build-site.js';
import { parseSiteManifest } from '../../../src/artifacts/site-manifest-file.js';
import { writeSite } from '../../../src/publish/write-site.js';
import { UsageError } from '../../../src/shared/errors.js';

// publish replaces its --out folder whole: only a folder it wrote before (or none, or an empty one). A file or a
// folder of other things is refused and kept; a failed write leaves no staging dir.

let temp: TempDir;
beforeEach(() => {
  temp = createTempDir('write-site');
});
afterEach(() => temp.remove());

const files: SiteFile[] = [{ path: 'index.html', content: Buffer.from('<h1>runs</h1>') }];

describe('writeSite', () => {
  it('writes a new site, then replaces its own site', async () => {
    const out = path.join(temp.path, 'site');
    await writeSite({ out, files });
    await writeSite({ out, files: [{ path: 'index.html', content: Buffer.from('v2') }] });
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toBe('v2');
    expect((await readdir(out)).sort()).toEqual([SITE_MANIFEST, 'index.html']);
    expect(await readdir(temp.path)).toEqual(['site']);
  });

  it('refuses a folder of other files and deletes none of them', async () => {
    const out = path.join(temp.path, 'docs');
    await mkdir(out);
    await writeFile(path.join(out, 'thesis.tex'), 'years of work');
    const error: unknown = await writeSite({ out, files }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      `${out} holds other files (thesis.tex), not a site rocm-perf wrote: nothing was written`,
    );
    expect(await readdir(out)).toEqual(['thesis.tex']);
    expect(await readdir(temp.path)).toEqual(['docs']);
  });

  it('refuses a file and keeps it', async () => {
    const out = path.join(temp.path, 'notes.txt');
    await writeFile(out, 'keep me');
    await expect(writeSite({ out, files })).rejects.toThrow(
      /is a file, not a site folder: nothing was written/,
    );
    expect(await readFile(out, 'utf8')).toBe('keep me');
  });

  it('a failed write removes its staging dir and leaves the old site', async () => {
    const out = path.join(temp.path, 'site');
    await writeSite({ out, files });
    const clash: SiteFile[] = [
      { path: 'a', content: Buffer.from('a file') },
      { path: 'a/b.html', content: Buffer.from('needs a folder a') },
    ];
    const error: unknown = await writeSite({ out, files: clash }).catch((thrown: unknown) => thrown);
    expect((error as NodeJS.ErrnoException).code).toMatch(/^E(NOTDIR|EXIST)$/);
    expect(await readdir(temp.path)).toEqual(['site']);
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toBe('<h1>runs</h1>');
  });
});

describe('the site manifest', () => {
  it('reads a manifest the push wrote, and nothing else', () => {
    const manifest = { version: 1, files: { 'index.html': 'a'.repeat(64) } };
    expect(parseSiteManifest(JSON.stringify(manifest))).toEqual(manifest);
    for (const text of [
      'not json',
      '{"version":2,"files":{}}',
      '{"version":1,"files":{"index.html":"not-a-digest"}}',
      '{"version":1,"files":[]}',
      '{"version":1,"files":{},"extra":true}',
    ])
      expect(parseSiteManifest(text), text).toBeUndefined();
  });
});
