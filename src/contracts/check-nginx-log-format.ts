import { renderShippedSccacheModule } from '../collect/logs/render-shipped-sccache-module.js';
import { parseLogFormat, tokenizeNginxConf, type LogFormatSpec } from '../collect/logs/parse-log-format.js';
import { createSccacheParser, sccacheLogFormatName } from '../collect/logs/create-shipped-sccache-parser.js';
import {
  at,
  createContractResult,
  type ContractPair,
  type ContractProblem,
  type ContractResult,
} from './contract-result.js';
import { escapeRegExp, findLine } from './find-line.js';
import { errorMessage } from '../shared/error-message.js';

// Pair 1: nginx's `log_format sccache_json` (producer) vs the sccache log parser (consumer). The parser is derived
// from the conf by the collector's own parseLogFormat + createSccacheParser, so this check runs exactly that
// derivation: whatever the parser would refuse at run time, the contract refuses now.

export interface CheckNginxLogFormatOptions {
  confText: string;
  /** As shown in messages, e.g. `.builders/nginx-sccache.conf` or `cache-host:/etc/nginx/conf.d/sccache.conf`. */
  confPath: string;
  pair?: Extract<ContractPair, 'nginx-log-format' | 'nginx-deployed-conf'>;
  /** fleet.yaml `sccache.log.path`: the file the collector slices. */
  fleetLog?: { fleetPath: string; path: string | undefined; line: number | undefined } | undefined;
  /** The conf embedded into the built CLI (src/collect/logs/shipped-sccache-conf.generated.ts). */
  embedded?: { path: string; text: string | undefined } | undefined;
  /** The shipped conf, when checking a deployed copy against it. */
  shipped?: { confText: string; confPath: string } | undefined;
}

const PARSER_FILE = 'src/collect/logs/parse-log-format.ts';
const CLASSIFIER_FILE = 'src/collect/logs/classify-sccache.ts';
/** escape=json logs a missing variable as nothing, so only variables that always print digits may go unquoted. */
const ALWAYS_DIGITS = new Set([
  'status',
  'msec',
  'request_length',
  'body_bytes_sent',
  'bytes_sent',
  'request_time',
  'connection',
  'connection_requests',
  'pid',
]);

function formatLine(confText: string): number | undefined {
  return findLine(confText, new RegExp(`log_format\\s+${sccacheLogFormatName}\\b`));
}

function variableLine(confText: string, variable: string): number | undefined {
  const from = confText.search(new RegExp(`log_format\\s+${sccacheLogFormatName}\\b`));
  return (
    findLine(confText, new RegExp(`\\$\\{?${escapeRegExp(variable)}\\b`), Math.max(0, from)) ??
    formatLine(confText)
  );
}

function deriveParser(
  options: CheckNginxLogFormatOptions,
  problems: ContractProblem[],
): LogFormatSpec | undefined {
  const producer = at(options.confPath, formatLine(options.confText));
  try {
    const spec = parseLogFormat(options.confText, sccacheLogFormatName);
    createSccacheParser({ confText: options.confText });
    return spec;
  } catch (error) {
    const consumer = at(/needs \$|escape=/.test(errorMessage(error)) ? CLASSIFIER_FILE : PARSER_FILE);
    problems.push({
      message: `the sccache log parser cannot be derived from it: ${errorMessage(error)}`,
      producer,
      consumer,
    });
    return undefined;
  }
}

function checkQuoting(spec: LogFormatSpec, options: CheckNginxLogFormatOptions): ContractProblem[] {
  return spec.fields
    .filter((field) => !field.quoted && !ALWAYS_DIGITS.has(field.variable))
    .map((field) => ({
      message: `"${field.key}":$${field.variable} is unquoted, but $${field.variable} can be empty (escape=json logs a missing value as nothing), which makes the line invalid JSON. Fix: write "${field.key}":"$${field.variable}".`,
      producer: at(options.confPath, variableLine(options.confText, field.variable)),
      consumer: at(PARSER_FILE),
    }));
}

function checkAccessLog(options: CheckNginxLogFormatOptions): ContractProblem[] {
  const tokens = tokenizeNginxConf(options.confText);
  const index = tokens.findIndex(
    (token, i) => token === 'access_log' && tokens[i + 2] === sccacheLogFormatName,
  );
  const fleetAt = at(options.fleetLog?.fleetPath ?? 'fleet.yaml', options.fleetLog?.line);
  if (index < 0) {
    return [
      {
        message: `no \`access_log <file> ${sccacheLogFormatName};\`, so nothing is written in the format the parser reads. Fix: add it to the WebDAV location.`,
        producer: at(options.confPath, formatLine(options.confText)),
        consumer: fleetAt,
      },
    ];
  }
  const logPath = tokens[index + 1] ?? '';
  const fleetPath = options.fleetLog?.path;
  if (fleetPath === undefined || fleetPath === logPath) return [];
  return [
    {
      message: `nginx writes the sccache log to \`${logPath}\` but fleet.yaml sccache.log.path is \`${fleetPath}\`. Fix: make them the same file.`,
      producer: at(options.confPath, findLine(options.confText, /^\s*access_log\s/m)),
      consumer: fleetAt,
    },
  ];
}

function checkEmbedded(options: CheckNginxLogFormatOptions): ContractProblem[] {
  const embedded = options.embedded;
  if (embedded === undefined || embedded.text === renderShippedSccacheModule(options.confText)) return [];
  const what = embedded.text === undefined ? 'is missing' : 'embeds another version of the conf';
  return [
    {
      message: `${embedded.path} ${what}, so the built CLI parses with a stale log_format. Fix: run \`npx tsx scripts/embed-sccache-conf.ts\` and rebuild.`,
      producer: at(options.confPath, formatLine(options.confText)),
      consumer: at(embedded.path, 3),
    },
  ];
}

function describeField(field: LogFormatSpec['fields'][number] | undefined): string {
  return field === undefined
    ? 'nothing'
    : `"${field.key}":${field.quoted ? `"$${field.variable}"` : `$${field.variable}`}`;
}

function checkAgainstShipped(spec: LogFormatSpec, options: CheckNginxLogFormatOptions): ContractProblem[] {
  if (options.shipped === undefined) return [];
  const shipped = parseLogFormat(options.shipped.confText, sccacheLogFormatName);
  const problems: ContractProblem[] = [];
  const fix = `Fix: deploy ${options.shipped.confPath} to the cache host and reload nginx.`;
  if (spec.escape !== shipped.escape)
    problems.push({
      message: `escape=${spec.escape} deployed, escape=${shipped.escape} shipped. ${fix}`,
      producer: at(options.confPath, formatLine(options.confText)),
      consumer: at(options.shipped.confPath, formatLine(options.shipped.confText)),
    });
  for (const want of shipped.fields) {
    const have = spec.fields.find((field) => field.key === want.key);
    if (have?.variable === want.variable && have.quoted === want.quoted) continue;
    problems.push({
      message: `deployed log_format has ${describeField(have)} where the shipped one has ${describeField(want)}. ${fix}`,
      producer: at(
        options.confPath,
        have ? variableLine(options.confText, have.variable) : formatLine(options.confText),
      ),
      consumer: at(options.shipped.confPath, variableLine(options.shipped.confText, want.variable)),
    });
  }
  return problems;
}

// Pure: the parser derives from this conf, every value it reads is quoted right, and the log lands where it is read.
export function checkNginxLogFormat(options: CheckNginxLogFormatOptions): ContractResult {
  const pair = options.pair ?? 'nginx-log-format';
  const title = `${options.confPath} log_format ${sccacheLogFormatName} ↔ sccache log parser (src/collect/logs/)`;
  const problems: ContractProblem[] = [];
  const spec = deriveParser(options, problems);
  if (spec) problems.push(...checkQuoting(spec, options), ...checkAgainstShipped(spec, options));
  problems.push(...checkAccessLog(options), ...checkEmbedded(options));
  const notes = spec
    ? [
        `${spec.fields.length} fields, escape=${spec.escape}: ${spec.fields.map((field) => field.key).join(', ')}`,
      ]
    : [];
  return createContractResult({ pair, title, problems, notes });
}
