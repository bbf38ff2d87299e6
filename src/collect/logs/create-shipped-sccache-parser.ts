// The sccache line parser derived from a conf's `log_format sccache_json` (by default the shipped conf, embedded at
// build time), with the DAV root taken from the conf's WebDAV `location`.
import type { SccacheRecord } from '../types.js';
import type { LineScanner } from '../native/line-scanner.js';
import { createSccacheLineParser } from './classify-sccache.js';
import type { LogLineParser } from './line-outcome.js';
import { createNginxLineParser } from './parse-nginx-line.js';
import { parseDavLocation, parseLogFormat } from './parse-log-format.js';
import { shippedSccacheConf } from './shipped-sccache-conf.generated.js';

export const sccacheLogFormatName = 'sccache_json';

export interface SccacheParserOptions {
  /** An nginx conf holding `log_format sccache_json`; default: the shipped .builders/nginx-sccache.conf. */
  confText?: string;
  /** Default: the conf's WebDAV location, else `/sccache/`. */
  davRoot?: string;
  addressToNode?: Readonly<Record<string, string>>;
  /** The native line scanner (loadLineScanner); without it lines are read by the JavaScript paths. */
  scanner?: LineScanner | undefined;
  /** See SccacheLineParserOptions.recordsKept. */
  recordsKept?: 'all' | 'writes';
}

export function createSccacheParser(options: SccacheParserOptions = {}): LogLineParser<SccacheRecord> {
  const confText = options.confText ?? shippedSccacheConf;
  const spec = parseLogFormat(confText, sccacheLogFormatName);
  const davRoot = options.davRoot ?? parseDavLocation(confText) ?? '/sccache/';
  return createSccacheLineParser(createNginxLineParser(spec), {
    davRoot,
    addressToNode: options.addressToNode,
    scanner: options.scanner,
    recordsKept: options.recordsKept,
  });
}
