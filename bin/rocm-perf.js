#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// Most commands finish in well under a second: V8 waits four times longer than its default before optimising a
// function with TurboFan, so a short command does not spend CPU compiling code it is about to stop running (report
// on the warm sample: about 0.53 → 0.44 s of CPU); a long one (a 300 MB log, a 1,000-target plan) still optimises
// its hot loops. docs/startup.md has the figures.
setFlagsFromString('--interrupt-budget=270336');
// dist/ is one bundle (scripts/build-cli.ts). With --debug a stack names src/*.ts lines: the source maps beside it
// are read only then (turned on before the bundle loads, as Node requires).
if (process.argv.includes('--debug')) process.setSourceMapsEnabled(true);
await import('../dist/cli.js');
