// The soak's knobs, from the environment (SOAK_*), with defaults that meet issue 16 item 5's targets.

export interface SoakSettings {
  /** Samples per node the run must record (the sample interval stands for 1 simulated second). */
  samplesPerNode: number;
  /** MiB the run's zot.jsonl slice must reach. */
  zotMiB: number;
  viewers: number;
  /** What the run page polls at (render-html.ts's default data-poll-ms). */
  viewerPollMs: number;
  sampleIntervalMs: number;
  /** The box's time scale: scenario seconds × timeScale = box seconds. */
  timeScale: number;
  /**
   * The box's link scale. A scrape slower than the sample interval is a gap, so the slowest node's shaped link must
   * carry a node_exporter answer within one interval: 0.2 gives the WiFi-like node 0.86 MB/s.
   */
  linkScale: number;
  peakRssLimitMiB: number;
  /** "Flat": RSS may grow at most this much per simulated hour over the second half of the run. */
  growthLimitMiBPerHour: number;
  /** Keep the runs root (with the 300 MB slice) after the soak. */
  keepRoot: boolean;
}

function readNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.includes('/') ? Number(raw.split('/')[0]) / Number(raw.split('/')[1]) : Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name}: expected a positive number (or a fraction like 1/7), got \`${raw}\``);
  return value;
}

export function readSoakSettings(): SoakSettings {
  return {
    samplesPerNode: readNumber('SOAK_SAMPLES', 20_000),
    zotMiB: readNumber('SOAK_ZOT_MB', 300),
    viewers: readNumber('SOAK_VIEWERS', 20),
    viewerPollMs: readNumber('SOAK_VIEWER_POLL_MS', 2000),
    sampleIntervalMs: readNumber('SOAK_SAMPLE_INTERVAL_MS', 50),
    timeScale: readNumber('SOAK_TIME_SCALE', 1 / 7),
    linkScale: readNumber('SOAK_LINK_SCALE', 0.2),
    peakRssLimitMiB: readNumber('SOAK_PEAK_RSS_MB', 300),
    growthLimitMiBPerHour: readNumber('SOAK_GROWTH_MB_PER_HOUR', 10),
    keepRoot: process.env.SOAK_KEEP === '1',
  };
}

/** Wall seconds → simulated hours: one sample interval is one simulated second. */
export const toSimulatedHours = (wallSeconds: number, sampleIntervalMs: number): number =>
  (wallSeconds * (1000 / sampleIntervalMs)) / 3600;
