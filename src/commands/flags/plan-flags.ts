// Not through artifacts/index.js, which loads zod with the schemas: `--help` builds this table without zod.
import { STRATEGY_NAMES } from '../../artifacts/strategy-names.js';
import { defineCommand, type CommandValues, type FlagSpec } from './flag-table.js';
import {
  commonFlags,
  dispatchFlag,
  forecastFlags,
  jsonFlag,
  planInputFlags,
  rootFlag,
} from './common-flags.js';
import { addedNodes, nodeNumbers, optionalText, switchValue } from './value-schemas.js';

// `rocm-perf plan`: its flags and what each value must be.

export const strategyFlag = {
  flags: '--strategy <name>',
  description: `placement strategy: ${STRATEGY_NAMES.map((name, i) => (i === 0 ? `${name} (default)` : name)).join(', ')}`,
  value: (z) => z.enum(STRATEGY_NAMES).optional(),
  expected: `one of ${STRATEGY_NAMES.join(', ')}`,
  example: 'heft',
} satisfies FlagSpec;

export const planCommand = defineCommand({
  name: 'plan',
  description: 'place every target on a node (builds nothing)',
  examples: [
    'rocm-perf plan --targets pytorch,vllm-wheel --strategy heft',
    'rocm-perf plan --from-run 20260314T092000Z-k3m9q2 --link kiln=110',
    'rocm-perf plan --dispatch guided --place-for p90',
  ],
  env: ['REGISTRY_NAME'],
  arguments: {},
  flags: {
    ...commonFlags,
    ...planInputFlags,
    json: jsonFlag,
    strategy: strategyFlag,
    dispatch: {
      ...dispatchFlag,
      description: `the dispatch policy the forecast simulates (${dispatchFlag.description})`,
    },
    ...forecastFlags,
    mode: {
      flags: '--mode <cold|warm>',
      description:
        'which figures to plan with: cold `build` lines and `image` bytes, or warm `warm-build` lines and `cache` bytes (each where present)',
      default: 'cold',
      value: (z) => z.enum(['cold', 'warm']),
      expected: 'cold or warm',
      example: 'warm',
    },
    compare: {
      flags: '--compare',
      description: 'every strategy side by side',
      default: false,
      value: switchValue,
    },
    out: { flags: '--out <dir>', description: 'write plan.json into DIR', value: optionalText },
    fromRun: {
      flags: '--from-run <run>',
      description:
        'what-if replay: re-simulate a recorded run dir (or a stamp under --root) with its measured costs, beside the run as `diff` replays it',
      value: optionalText,
    },
    root: rootFlag,
    link: {
      flags: '--link <node=mbps>',
      description: "with --from-run: set a node's upload link, MB/s (repeatable)",
      repeatable: true,
      value: nodeNumbers,
      expected: 'NODE=MBPS with a positive number of MB/s',
      example: 'kiln=110',
    },
    speed: {
      flags: '--speed <node=factor>',
      description: "with --from-run: set a node's build speed (repeatable)",
      repeatable: true,
      value: nodeNumbers,
      expected: 'NODE=FACTOR with a positive speed factor',
      example: 'kiln=1.3',
    },
    dropNode: {
      flags: '--drop-node <node>',
      description: 'with --from-run: remove a node from the fleet (repeatable)',
      repeatable: true,
      value: (z) => z.array(z.string().trim().min(1)),
      expected: 'a node name',
      example: 'kiln',
    },
    addNode: {
      flags: '--add-node <spec>',
      description: 'with --from-run: add a node, name=NAME,link=MBPS[,speed=FACTOR] (repeatable)',
      repeatable: true,
      value: addedNodes,
      expected: 'name=NAME,link=MBPS[,speed=FACTOR][,builder=NAME] with positive numbers',
      example: 'name=kiln2,link=110',
    },
  },
});

export type PlanValues = CommandValues<typeof planCommand>;
