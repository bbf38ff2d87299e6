#!/usr/bin/env node
// dist/ is one bundle (scripts/build-cli.ts). With --debug a stack names src/*.ts lines: the source maps beside it
// are read only then (turned on before the bundle loads, as Node requires).
if (process.argv.includes('--debug')) process.setSourceMapsEnabled(true);
await import('../dist/cli.js');
