import { z } from 'zod';

// A run's lane: where it was recorded. Runs this fleet's harness makes are lane `fleet`; a run recorded elsewhere
// (the nightly on AWS, say) comes in through `rocm-perf import --lane NAME`, which writes its lane into lane.txt.
// Numbers from different lanes are not comparable, as numbers from different harnesses are not.

export const DEFAULT_LANE = 'fleet';

export const LaneSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,62}$/,
    'a lane is lower-case letters, digits, `.`, `_` or `-`, e.g. nightly-aws',
  );
