import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlanFileSchema, type Plan } from '../../../src/artifacts/index.js';
import { planFromFigures, renderPlan } from '../../../src/plan/index.js';
import { loadPlanInputs } from '../../../src/run/plan-inputs/load-plan-inputs.js';
import { toShownParts } from '../../../src/shared/format-units.js';

// `plan`'s table (issue 36): the parts it prints visibly add up. Each printed row is parsed here, by a parser of this
// test's own, and added: start + build + export (+ setup) = finish, exactly in the digits shown; each node line's
// busy + idle = the makespan line, and waiting on deps + placement loss = idle. Each printed figure must also be
// within one step of its true value in plan.json (the rounding may move a part, never invent it). Plans: the box's
// short warm and cold sample runs (fixtures/runs/*/plan.json, where whole seconds hid everything), the shipped fleet
// (hours), and a plan with sub-0.1 s exports.

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** `1h02m03s`, `4m05s`, `2s`, `2.37s`, `0.040s`, `0s` → seconds; and the step of the last digit shown. */
function parseShown(text: string): { seconds: number; step: number } {
  const long = /^(?:(\d+)h)?(?:(\d+)m)?(\d+)s$/.exec(text);
  if (long && (long[1] !== undefined || long[2] !== undefined || !text.includes('.')))
    return { seconds: Number(long[1] ?? 0) * 3600 + Number(long[2] ?? 0) * 60 + Number(long[3]), step: 1 };
  const short = /^(\d+)\.(\d+)s$/.exec(text);
  if (!short) throw new Error(`not a duration: ${text}`);
  return { seconds: Number(`${short[1]}.${short[2]}`), step: 10 ** -short[2]!.length };
}

const DURATION = String.raw`\d+(?:\.\d+)?s|(?:\d+h)?\d+m\d+s`;
const ROW = new RegExp(
  String.raw`^  +(${DURATION}) +(${DURATION}) +(\S+) +(${DURATION}) +(${DURATION})(?: +(${DURATION}))?(?: |$)`,
);
const NODE = new RegExp(
  String.raw`^(\S+) — .*; busy (${DURATION})(?:, never idle| \+ idle (${DURATION}) \(waiting on deps (${DURATION}), placement loss (${DURATION})\))$`,
);

const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;
/** The one rule's step for a figure (docs/report.md, "Numbers"): 3 decimals under 0.1 s, 2 under a minute, whole seconds from one. */
const ruleStep = (seconds: number) => (seconds < 0.1 ? 0.001 : seconds < 59.995 ? 0.01 : 1);

function checkSums(plan: Plan): { rows: number; nodes: number } {
  const text = renderPlan(plan);
  const lines = text.split('\n');
  const makespanText = /^makespan +(\S+)/m.exec(text)![1]!;
  const makespan = parseShown(makespanText);
  expect(Math.abs(makespan.seconds - plan.makespanSeconds)).toBeLessThanOrEqual(makespan.step / 2 + 1e-9);
  expect(makespan.step).toBe(ruleStep(plan.makespanSeconds));
  let [rows, nodes] = [0, 0];
  for (const line of lines) {
    const row = ROW.exec(line);
    if (row) {
      const [start, finish, , ...parts] = [
        row[1]!,
        row[2]!,
        row[3]!,
        row[4]!,
        row[5]!,
        ...(row[6] ? [row[6]] : []),
      ].map((cell, k) => (k === 2 ? { seconds: 0, step: 0 } : parseShown(cell)));
      const target = plan.targets[row[3]!]!;
      expect(
        close(start!.seconds + parts.reduce((sum, p) => sum + p.seconds, 0), finish!.seconds),
        line,
      ).toBe(true);
      const step = finish!.step;
      // A finish is shown by the one rule; its row's start and parts at the same step.
      expect(step, line).toBe(ruleStep(target.finishSeconds));
      for (const cell of [start, ...parts]) if (cell!.seconds !== 0) expect(cell!.step, line).toBe(step);
      expect(Math.abs(finish!.seconds - target.finishSeconds), line).toBeLessThanOrEqual(step / 2 + 1e-9);
      expect(Math.abs(start!.seconds - target.startSeconds), line).toBeLessThanOrEqual(step / 2 + 1e-9);
      const raw = [target.buildSeconds, target.exportSeconds, target.setupSeconds];
      parts.forEach((part, k) => expect(Math.abs(part.seconds - raw[k]!), line).toBeLessThan(step + 1e-9));
      rows += 1;
      continue;
    }
    const node = NODE.exec(line);
    if (!node) continue;
    const entry = plan.nodes.find((n) => n.name === node[1])!;
    const busy = parseShown(node[2]!);
    const idle = node[3] === undefined ? { seconds: 0, step: busy.step } : parseShown(node[3]);
    expect(close(busy.seconds + idle.seconds, makespan.seconds), line).toBe(true);
    expect(Math.abs(busy.seconds - entry.busySeconds), line).toBeLessThan(makespan.step + 1e-9);
    if (node[3] !== undefined) {
      const [deps, loss] = [parseShown(node[4]!), parseShown(node[5]!)];
      expect(close(deps.seconds + loss.seconds, idle.seconds), line).toBe(true);
      expect(Math.abs(deps.seconds - entry.dependencyWaitSeconds), line).toBeLessThan(makespan.step + 1e-9);
    }
    nodes += 1;
  }
  return { rows, nodes };
}

const readPlan = (file: string) => PlanFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));

describe("plan's table adds up", () => {
  it('on the sample runs’ plans (seconds long, two decimals)', () => {
    for (const run of ['gfx1201-warm', 'gfx1201-cold']) {
      const plan = readPlan(path.join(repoRoot, 'fixtures/runs', run, 'plan.json'));
      const { rows, nodes } = checkSums(plan);
      expect(rows).toBe(Object.keys(plan.targets).length);
      expect(nodes).toBe(plan.nodes.length);
    }
  });

  it('on the shipped fleet, cold and warm (hours, whole seconds)', async () => {
    const inputs = await loadPlanInputs({ fleetPath: path.join(repoRoot, 'fleet.yaml'), env: {} });
    for (const mode of ['cold', 'warm'] as const) {
      const plan = planFromFigures({
        figures: inputs.costs,
        mode,
        graph: inputs.graph,
        nodes: inputs.config.nodes,
        arch: inputs.config.arch,
        createdAt: '2026-12-06T00:00:00Z',
      });
      const { rows } = checkSums(plan);
      expect(rows).toBe(Object.keys(plan.targets).length);
    }
  });

  it('with exports under a tenth of a second beside builds of minutes', () => {
    const plan = readPlan(path.join(repoRoot, 'fixtures/runs/gfx1201-warm/plan.json'));
    const scaled = structuredClone(plan);
    // Builds 40× longer (minutes), exports and setups as they were (hundredths): the row steps differ by target.
    for (const target of Object.values(scaled.targets)) {
      target.buildSeconds *= 40;
      target.startSeconds *= 40;
      target.finishSeconds =
        target.startSeconds + target.buildSeconds + target.exportSeconds + target.setupSeconds;
    }
    scaled.makespanSeconds = Math.max(...Object.values(scaled.targets).map((t) => t.finishSeconds));
    for (const node of scaled.nodes) {
      const own = Object.values(scaled.targets).filter((t) => t.node === node.name);
      node.busySeconds = own.reduce((sum, t) => sum + t.finishSeconds - t.startSeconds, 0);
      node.idleSeconds = scaled.makespanSeconds - node.busySeconds;
      node.dependencyWaitSeconds = node.idleSeconds * 0.7;
      node.placementLossSeconds = node.idleSeconds * 0.3;
    }
    expect(checkSums(scaled).rows).toBe(Object.keys(scaled.targets).length);
  });
});

describe('toShownParts', () => {
  it('rounds each part down or up by less than a step, and the parts add up to the total given', () => {
    const cases: [number[], number, number][] = [
      [[1397.4, 104.4], 1502, 1],
      [[2.254, 0.093, 0.449], 279, 0.01],
      [[0.0041, 0.0042, 0.0043], 13, 0.001],
      [[10, 0], 10, 1],
      [[59.996, 0.004], 60, 1],
    ];
    for (const [parts, total, step] of cases) {
      const shown = toShownParts(parts, total, step);
      expect(Math.round(shown.reduce((a, b) => a + b, 0) / step)).toBe(total);
      shown.forEach((value, k) => expect(Math.abs(value - parts[k]!)).toBeLessThan(step));
    }
  });
});
