// Embeds .builders/nginx-sccache.conf into src/collect/logs/shipped-sccache-conf.generated.ts, so the CLI built
// into dist/ derives its sccache log parser from the shipped conf without the repo. A unit test fails when the two
// differ: run `npm run embed:sccache-conf` after editing the conf.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderShippedSccacheModule } from '../src/collect/logs/render-shipped-sccache-module.js';

const confUrl = new URL('../.builders/nginx-sccache.conf', import.meta.url);
const moduleUrl = new URL('../src/collect/logs/shipped-sccache-conf.generated.ts', import.meta.url);
writeFileSync(moduleUrl, renderShippedSccacheModule(readFileSync(confUrl, 'utf8')));
console.log('wrote src/collect/logs/shipped-sccache-conf.generated.ts');
