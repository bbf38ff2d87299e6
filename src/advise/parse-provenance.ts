import { fromSlsaV1 } from '../explain/index.js';
import type { MaterialFact, ProvenanceFact } from './advise-input.js';

// A target's provenance (meta-TARGET.json's, or a build record's provenance-TARGET.json) → its build args and input images. Pure and
// lenient: the file is untrusted, so a missing or odd-shaped part gives nothing for that part, never a throw.

const ARG_PREFIX = 'build-arg:';

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * `pkg:docker/10.0.0.1%3A5000/rocm/base@gfx1201?platform=…` → `10.0.0.1:5000/rocm/base:gfx1201`. BuildKit writes a
 * digest-pinned ref with a `digest=` qualifier (and the tag as the version when it has one too: RefToPURL in
 * util/purl/image.go, v0.17.3); an older form carries the digest as the version. Either is pinned.
 * @internal
 */
export function parseMaterialRef(uri: string): { ref: string; pinned: boolean } | undefined {
  const match = /^pkg:docker\/([^@?]+)(?:@([^?]+))?(?:\?(.*))?$/.exec(uri);
  if (!match) return undefined;
  const name = decodeURIComponent(match[1]!);
  const version = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
  const qualified = /(^|&)digest=/.test(match[3] ?? '');
  if (version === undefined) return { ref: name, pinned: qualified };
  if (/^sha256:[0-9a-f]{64}$/.test(version)) return { ref: `${name}@${version}`, pinned: true };
  return { ref: `${name}:${version}`, pinned: qualified };
}

function toMaterials(value: unknown): MaterialFact[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const material = asRecord(entry);
    const uri = material?.uri;
    const sha = asRecord(material?.digest)?.sha256;
    if (typeof uri !== 'string' || typeof sha !== 'string') return [];
    const parsed = parseMaterialRef(uri);
    return parsed ? [{ ...parsed, digest: `sha256:${sha}` }] : [];
  });
}

function toArgs(value: unknown): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [key, arg] of Object.entries(asRecord(value) ?? {}))
    if (key.startsWith(ARG_PREFIX) && typeof arg === 'string') args[key.slice(ARG_PREFIX.length)] = arg;
  return args;
}

/**
 * The facts of one target's provenance (the value of `buildx.build.provenance`, SLSA v0.2 or a build record's v1
 * predicate); undefined when it is not an object.
 */
export function toProvenanceFact(raw: unknown): ProvenanceFact | undefined {
  const provenance = asRecord(fromSlsaV1(raw));
  if (!provenance) return undefined;
  const parameters = asRecord(asRecord(provenance.invocation)?.parameters);
  return { args: toArgs(parameters?.args), materials: toMaterials(provenance.materials) };
}

/**
 * meta-TARGET.json's text → the target's provenance facts; undefined when it is not JSON or records none for it.
 * @internal
 */
export function parseProvenance(text: string, target: string): ProvenanceFact | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const provenance = asRecord(asRecord(raw)?.[target])?.['buildx.build.provenance'];
  return provenance === undefined ? undefined : toProvenanceFact(provenance);
}
