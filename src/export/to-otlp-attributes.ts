import type { OtlpKeyValue } from './otlp-trace-schema.js';

// Typed attribute entries → OTLP KeyValues; a null or undefined value is left out (never sent as 0 or ""). Pure.

export type OtlpAttributeEntry =
  | [key: string, kind: 'string', value: string | null | undefined]
  | [key: string, kind: 'int', value: number | null | undefined]
  | [key: string, kind: 'double', value: number | null | undefined]
  | [key: string, kind: 'bool', value: boolean | null | undefined]
  | [key: string, kind: 'strings', value: readonly string[] | null | undefined];

function toValue(entry: OtlpAttributeEntry): OtlpKeyValue['value'] | undefined {
  switch (entry[1]) {
    case 'string':
      return entry[2] == null ? undefined : { stringValue: entry[2] };
    case 'int':
      return entry[2] == null ? undefined : { intValue: String(Math.round(entry[2])) };
    case 'double':
      return entry[2] == null || !Number.isFinite(entry[2]) ? undefined : { doubleValue: entry[2] };
    case 'bool':
      return entry[2] == null ? undefined : { boolValue: entry[2] };
    case 'strings':
      return entry[2] == null || entry[2].length === 0
        ? undefined
        : { arrayValue: { values: entry[2].map((stringValue) => ({ stringValue })) } };
  }
}

export function toOtlpAttributes(entries: readonly OtlpAttributeEntry[]): OtlpKeyValue[] {
  const out: OtlpKeyValue[] = [];
  for (const entry of entries) {
    const value = toValue(entry);
    if (value !== undefined) out.push({ key: entry[0], value });
  }
  return out;
}
