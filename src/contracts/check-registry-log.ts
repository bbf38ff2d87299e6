import { parseYamlWithLines } from '../config/index.js';
import {
  at,
  createContractResult,
  type ContractProblem,
  type ContractResult,
  type SourceLocation,
} from './contract-result.js';

// Pair 2: the registry's log settings (Zot config, the producer) vs what fleet.yaml tells the collector to read.

/** What fleet.yaml says about the registry log (the consumer side). */
export interface FleetRegistryLog {
  fleetPath: string;
  logFormat: 'zot' | 'distribution';
  /** `registry.log.path`, or undefined when fleet.yaml collects no registry log. */
  logPath: string | undefined;
  logPathLine: number | undefined;
  logFormatLine: number | undefined;
}

export interface CheckRegistryLogOptions {
  zotConfigText: string;
  zotConfigPath: string;
  fleet: FleetRegistryLog;
}

/** Zot writes its per-request session lines at info; these levels keep them. Unset means Zot's default, debug. */
const LEVELS_WITH_SESSION_LINES = new Set(['trace', 'debug', 'info']);
const LEVELS_WITHOUT = new Set(['warn', 'warning', 'error', 'fatal', 'panic']);

/** Viper reads Zot's config keys case-insensitively. */
function findKey(value: unknown, key: string): [string, unknown] | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.entries(value).find(([name]) => name.toLowerCase() === key);
}

function checkLevel(level: unknown, where: SourceLocation, fleetAt: SourceLocation): ContractProblem[] {
  const text = typeof level === 'string' ? level.toLowerCase() : String(level);
  if (LEVELS_WITH_SESSION_LINES.has(text)) return [];
  const why = LEVELS_WITHOUT.has(text)
    ? `Zot writes its "HTTP API" session lines at info, so at \`${String(level)}\` there are none and the registry stream reads 0`
    : `\`${String(level)}\` is not a Zot log level (debug, info, warn, error)`;
  return [
    {
      message: `log.level: ${why}. Fix: set "level": "info" (or debug).`,
      producer: where,
      consumer: fleetAt,
    },
  ];
}

function checkOutput(output: unknown, where: SourceLocation, fleet: FleetRegistryLog): ContractProblem[] {
  const consumer = at(fleet.fleetPath, fleet.logPathLine);
  const written = typeof output === 'string' && output !== '' ? output : undefined;
  if (fleet.logPath === undefined) {
    return [
      {
        message: `fleet.yaml has no registry.log, so the run collects no registry log. Fix: set registry.log.path to ${written ? `\`${written}\`` : 'the file Zot writes (log.output)'} with a node or ssh host.`,
        producer: where,
        consumer,
      },
    ];
  }
  if (written === undefined) {
    return [
      {
        message: `log.output is unset, so Zot logs to stdout, but fleet.yaml reads \`${fleet.logPath}\`. Fix: set "output": "${fleet.logPath}".`,
        producer: where,
        consumer,
      },
    ];
  }
  if (written !== fleet.logPath) {
    return [
      {
        message: `log.output is \`${written}\` but fleet.yaml registry.log.path is \`${fleet.logPath}\`. Fix: make them the same file.`,
        producer: where,
        consumer,
      },
    ];
  }
  return [];
}

// Pure: session lines are written (level) to the file fleet.yaml slices (output), in the format it expects.
export function checkRegistryLog({
  zotConfigText,
  zotConfigPath,
  fleet,
}: CheckRegistryLogOptions): ContractResult {
  const title = `Zot config ${zotConfigPath} ↔ ${fleet.fleetPath} registry.log`;
  const parsed = parseYamlWithLines(zotConfigText, zotConfigPath);
  const fleetAt = at(fleet.fleetPath, fleet.logPathLine);
  if (parsed.errors.length > 0) {
    const problems = parsed.errors.map((message) => ({
      message: `${message}. Fix: make it valid JSON (or YAML).`,
      producer: at(zotConfigPath, Number(/:(\d+):/.exec(message)?.[1]) || undefined),
      consumer: fleetAt,
    }));
    return createContractResult({ pair: 'registry-log', title, problems });
  }
  const problems: ContractProblem[] = [];
  if (fleet.logFormat !== 'zot') {
    problems.push({
      message: `fleet.yaml registry.log_format is \`${fleet.logFormat}\`, but the registry is Zot. Fix: set log_format: zot.`,
      producer: at(zotConfigPath),
      consumer: at(fleet.fleetPath, fleet.logFormatLine),
    });
  }
  const logEntry = findKey(parsed.value, 'log');
  const logLine = parsed.lineOf([], logEntry?.[0]);
  const levelEntry = findKey(logEntry?.[1], 'level');
  const outputEntry = findKey(logEntry?.[1], 'output');
  const notes = levelEntry ? [] : ['log.level unset: Zot defaults to debug, which keeps session lines'];
  if (levelEntry && logEntry)
    problems.push(
      ...checkLevel(levelEntry[1], at(zotConfigPath, parsed.lineOf([logEntry[0]], levelEntry[0])), fleetAt),
    );
  const outputAt = at(
    zotConfigPath,
    outputEntry && logEntry ? parsed.lineOf([logEntry[0]], outputEntry[0]) : logLine,
  );
  problems.push(...checkOutput(outputEntry?.[1], outputAt, fleet));
  return createContractResult({ pair: 'registry-log', title, problems, notes });
}
