// The sccache line parser derived from a conf's `log_format sccache_json` (by default the shipped conf, embedded at
// build time), with the DAV root taken from the conf's WebDAV `location`.
import type { SccacheRecord } from '../types.js';
import { createSccacheLineParser } from './classify-sccache.js';
import type { LogLineParser } from './line-outcome.js';
import { parseDavLocation, parseLogFormat } from './parse-log-format.js';
import { shippedSccacheConf } from './shipped-sccache-conf.generated.js';

export const sccacheLogFormatName = 'sccache_json';

export interface SccacheParserOptions {
  /** An nginx conf holding `log_format sccache_json`; default: the shipped .builders/nginx-sccache.conf. */
  confText?: string;
  /** Default: the conf's WebDAV location, else `/sccache/`. */
  davRoot?: string;
  addressToNode?: Readonly<Record<string, string>>;
}

export function createSccacheParser(options: SccacheParserOptions = {}): LogLineParser<SccacheRecord> {
  const confText = options.confText ?? shippedSccacheConf;
  return createSccacheLineParser(parseLogFormat(confText, sccacheLogFormatName), {
    davRoot: options.davRoot ?? parseDavLocation(confText) ?? '/sccache/',
    addressToNode: options.addressToNode,
  });
}
