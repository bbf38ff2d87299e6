import { describe, expect, it } from 'vitest';
import {
  createIndexProgressPrinter,
  describeIndexBuild,
  renderIndexBuildingPage,
} from '../../../src/serve/describe-index-build.js';

// What serve tells its console and its viewers while the run index loads. The estimate is checked against a rate
// worked out here by hand: 2,400 runs in 24 s is 100 runs a second, so 7,600 runs left is 76 s.

const startedAtMs = Date.UTC(2026, 11, 7, 8);

describe('describeIndexBuild', () => {
  it('says how many runs of how many were looked at, since when, and about how long is left', () => {
    const line = describeIndexBuild(
      { done: 2400, total: 10_000, fresh: true, startedAtMs },
      startedAtMs + 24_000,
    );
    expect(line).toBe(
      'building the run index (no index file yet: every run is read once): 2,400 of 10,000 runs looked at in 24.00s, about 1m16s left',
    );
  });

  it('gives no estimate on too little evidence, and none at the end', () => {
    expect(
      describeIndexBuild({ done: 5, total: 10_000, fresh: true, startedAtMs }, startedAtMs + 30_000),
    ).toBe(
      'building the run index (no index file yet: every run is read once): 5 of 10,000 runs looked at in 30.00s',
    );
    expect(describeIndexBuild({ done: 900, total: 1000, fresh: false, startedAtMs }, startedAtMs + 500)).toBe(
      'building the run index (from its index file: runs it lacks are read): 900 of 1,000 runs looked at in 0.50s',
    );
    expect(
      describeIndexBuild({ done: 50, total: 50, fresh: true, startedAtMs }, startedAtMs + 9000),
    ).not.toContain('left');
  });

  it('says what it does before the root is listed', () => {
    expect(describeIndexBuild({ done: 0, total: 0, fresh: false, startedAtMs }, startedAtMs)).toBe(
      'building the run index: reading its index file and listing the runs root',
    );
  });
});

describe('renderIndexBuildingPage', () => {
  it('reloads itself and says so, with the progress escaped into the page', () => {
    const page = renderIndexBuildingPage(
      { done: 10, total: 40, fresh: true, startedAtMs },
      startedAtMs + 1000,
    );
    expect(page).toContain('<meta http-equiv="refresh" content="5">');
    expect(page).toContain('10 of 40 runs looked at in 1.00s');
    expect(page).toContain('reloads itself every 5 seconds');
    expect(page).not.toMatch(/<script/);
  });
});

describe('createIndexProgressPrinter', () => {
  it('prints a long load 5 s in, every 10 s after, and its end; a short load prints nothing', () => {
    let now = startedAtMs;
    const lines: string[] = [];
    const step = createIndexProgressPrinter({ print: (line) => lines.push(line), nowMs: () => now });
    const total = 3000;
    // One run every 10 ms: 30 s in all.
    for (let done = 1; done <= total; done++) {
      now = startedAtMs + done * 10;
      step({ done, total, fresh: true, startedAtMs });
    }
    expect(lines.map((line) => /in ([\d.]+)s/.exec(line)?.[1])).toEqual(['5.00', '15.00', '25.00', '30.00']);
    expect(lines[0]).toBe(
      'rocm-perf serve: building the run index (no index file yet: every run is read once): 500 of 3,000 runs looked at in 5.00s, about 25.00s left',
    );
    expect(lines.at(-1)).toBe('rocm-perf serve: run index built: 3,000 runs in 30.00s');
    lines.length = 0;
    for (let done = 1; done <= 100; done++) {
      now = startedAtMs + done * 10;
      step({ done, total: 100, fresh: false, startedAtMs });
    }
    expect(lines).toEqual([]);
  });
});
