import { createHash } from 'node:crypto';
import { z } from 'zod';
import { UsageError } from '../shared/errors.js';
import { formatZodIssues } from '../shared/format-zod-issues.js';

// A .dockerbuild (`docker buildx history export`, buildx v0.36.1 util/desktop/bundle) unpacked in memory → its build
// records. The archive is an OCI image layout (oci-layout, index.json, blobs/sha256/<hex>); index.json names one
// manifest per record (one record), or one index whose manifests are the records, each annotated with
// `vnd.buildkit.history.reference` (several). A record's manifest: config = the BuildHistoryRecord as JSON
// (`application/vnd.buildkit.historyrecord.v0`, Go field names), layers = its trace (span stream,
// `application/vnd.buildkit.otlp.json.v0`), its status log (`application/vnd.buildkit.status.v0`), its attestations
// (`in-toto.io/predicate-type` annotation) and result descriptors. Every blob is checked against its digest and
// size. Foreign JSON is read with loose schemas: a newer buildx may add fields. docs/dockerbuild.md. Pure.

const HISTORY_RECORD = 'application/vnd.buildkit.historyrecord.v0';
const TRACE = 'application/vnd.buildkit.otlp.json.v0';
const STATUS = 'application/vnd.buildkit.status.v0';
const INDEX = 'application/vnd.oci.image.index.v1+json';
const MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const REF_ANNOTATION = 'vnd.buildkit.history.reference';
const PREDICATE_ANNOTATION = 'in-toto.io/predicate-type';

const DescriptorSchema = z.looseObject({
  mediaType: z.string(),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
  annotations: z.record(z.string(), z.string()).optional(),
});
type Descriptor = z.infer<typeof DescriptorSchema>;
const IndexSchema = z.looseObject({ manifests: z.array(DescriptorSchema).min(1) });
const ManifestSchema = z.looseObject({
  mediaType: z.literal(MANIFEST),
  config: DescriptorSchema.extend({ mediaType: z.literal(HISTORY_RECORD) }),
  layers: z.array(DescriptorSchema).nullish(),
});
const TimestampSchema = z.looseObject({
  seconds: z.number().int().optional(),
  nanos: z.number().int().optional(),
});
const RecordSchema = z.looseObject({
  Ref: z.string().regex(/^[A-Za-z0-9]+$/),
  FrontendAttrs: z.record(z.string(), z.string()).nullish(),
  ExporterResponse: z.record(z.string(), z.string()).nullish(),
  Exporters: z
    .array(z.looseObject({ Type: z.string(), Attrs: z.record(z.string(), z.string()).nullish() }))
    .nullish(),
  CreatedAt: TimestampSchema.nullish(),
  CompletedAt: TimestampSchema.nullish(),
  error: z.looseObject({ code: z.number().optional(), message: z.string().optional() }).nullish(),
  numCachedSteps: z.number().int().nonnegative().optional(),
  numTotalSteps: z.number().int().nonnegative().optional(),
  numCompletedSteps: z.number().int().nonnegative().optional(),
  DefaultPlatform: z.string().optional(),
  localState: z.looseObject({ Target: z.string().optional() }).nullish(),
  stateGroup: z.looseObject({ Targets: z.array(z.string()).nullish() }).nullish(),
});

/** One build record of a .dockerbuild, with the blobs rocm-perf reads. */
export interface DockerbuildRecord {
  ref: string;
  /** The bake target (buildx's local state), else the Dockerfile stage built (`target` attr), else the ref. */
  target: string;
  createdAtMs: number | undefined;
  completedAtMs: number | undefined;
  /** BuildKit's own counts over the record's vertices (the status log): cached, all, completed. */
  steps: { cached: number; total: number; completed: number };
  /** The build's error message; undefined when it succeeded. */
  error: string | undefined;
  frontendAttrs: Readonly<Record<string, string>>;
  exporterResponse: Readonly<Record<string, string>>;
  /** The build's exporters (`image` with `name` and `push`, `local`, …) as the record keeps them. */
  exporters: { type: string; attrs: Readonly<Record<string, string>> }[];
  platform: string | undefined;
  /** The trace blob (concatenated span objects), as stored. */
  trace: string | undefined;
  /** The status log blob (4-byte little-endian length + StatusResponse protobuf, repeated). */
  status: Buffer | undefined;
  /** Each attestation blob by its predicate type (the SLSA provenance among them). */
  attestations: { predicateType: string; text: string }[];
}

const HINT =
  'export the record again with `docker buildx history export --finalize REF -o FILE.dockerbuild` (buildx ≥ 0.23), and import that file';

function fail(file: string, member: string, message: string): never {
  throw new UsageError(`${file}: ${member}: ${message}; nothing was imported`, { hint: HINT });
}

function parseJson<T>(file: string, member: string, text: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    fail(file, member, `not JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) fail(file, member, formatZodIssues(parsed.error.issues, { limit: 2 }));
  return parsed.data;
}

const blobName = (descriptor: Descriptor) => `blobs/sha256/${descriptor.digest.slice('sha256:'.length)}`;

/** The blob a descriptor names, checked against its digest and size; undefined when the archive lacks it. */
function readBlob(
  file: string,
  files: ReadonlyMap<string, Buffer>,
  descriptor: Descriptor,
): Buffer | undefined {
  const name = blobName(descriptor);
  const bytes = files.get(name);
  if (bytes === undefined) return undefined;
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (digest !== descriptor.digest)
    fail(file, name, `its bytes hash to ${digest}, not the ${descriptor.digest} its descriptor names`);
  if (bytes.length !== descriptor.size)
    fail(file, name, `${bytes.length} bytes, not the ${descriptor.size} its descriptor names`);
  return bytes;
}

function requireBlob(file: string, files: ReadonlyMap<string, Buffer>, descriptor: Descriptor): Buffer {
  return readBlob(file, files, descriptor) ?? fail(file, blobName(descriptor), 'missing from the archive');
}

const toMs = (stamp: z.infer<typeof TimestampSchema> | null | undefined) =>
  stamp?.seconds === undefined ? undefined : stamp.seconds * 1000 + Math.floor((stamp.nanos ?? 0) / 1e6);

function toRecord(
  file: string,
  files: ReadonlyMap<string, Buffer>,
  manifestDescriptor: Descriptor,
): DockerbuildRecord {
  const manifestName = blobName(manifestDescriptor);
  const manifest = parseJson(
    file,
    manifestName,
    requireBlob(file, files, manifestDescriptor).toString('utf8'),
    ManifestSchema,
  );
  const configName = blobName(manifest.config);
  const record = parseJson(
    file,
    configName,
    requireBlob(file, files, manifest.config).toString('utf8'),
    RecordSchema,
  );
  const layers = manifest.layers ?? [];
  const pick = (mediaType: string) => layers.find((layer) => layer.mediaType === mediaType);
  const traceLayer = pick(TRACE);
  const statusLayer = pick(STATUS);
  const attestations = layers.flatMap((layer) => {
    const predicateType = layer.annotations?.[PREDICATE_ANNOTATION];
    const bytes = predicateType === undefined ? undefined : readBlob(file, files, layer);
    return predicateType === undefined || bytes === undefined
      ? []
      : [{ predicateType, text: bytes.toString('utf8') }];
  });
  const attrs = record.FrontendAttrs ?? {};
  return {
    ref: record.Ref,
    target: record.localState?.Target || attrs.target || record.Ref,
    createdAtMs: toMs(record.CreatedAt),
    completedAtMs: toMs(record.CompletedAt),
    steps: {
      cached: record.numCachedSteps ?? 0,
      total: record.numTotalSteps ?? 0,
      completed: record.numCompletedSteps ?? 0,
    },
    error: record.error
      ? (record.error.message ?? `error code ${record.error.code ?? 'unknown'}`)
      : undefined,
    frontendAttrs: attrs,
    exporterResponse: record.ExporterResponse ?? {},
    exporters: (record.Exporters ?? []).map((exporter) => ({
      type: exporter.Type,
      attrs: exporter.Attrs ?? {},
    })),
    platform: record.DefaultPlatform,
    trace: traceLayer === undefined ? undefined : readBlob(file, files, traceLayer)?.toString('utf8'),
    status: statusLayer === undefined ? undefined : readBlob(file, files, statusLayer),
    attestations,
  };
}

/** The records a .dockerbuild holds, in its order. `file` names the archive in errors. */
export function parseDockerbuild(file: string, files: ReadonlyMap<string, Buffer>): DockerbuildRecord[] {
  if (!files.has('oci-layout')) fail(file, 'oci-layout', 'missing: not an OCI layout, so not a .dockerbuild');
  const indexText = files.get('index.json')?.toString('utf8') ?? fail(file, 'index.json', 'missing');
  const top = parseJson(file, 'index.json', indexText, IndexSchema).manifests;
  const manifests = top.flatMap((descriptor) => {
    if (descriptor.mediaType === MANIFEST) return [descriptor];
    if (descriptor.mediaType !== INDEX)
      fail(
        file,
        'index.json',
        `names a ${descriptor.mediaType}, neither a record's manifest nor an index of them`,
      );
    const name = blobName(descriptor);
    const inner = parseJson(file, name, requireBlob(file, files, descriptor).toString('utf8'), IndexSchema);
    return inner.manifests;
  });
  const records = manifests.map((descriptor) => {
    const record = toRecord(file, files, descriptor);
    const annotated = descriptor.annotations?.[REF_ANNOTATION];
    if (annotated !== undefined && annotated !== record.ref)
      fail(file, blobName(descriptor), `annotated as record ${annotated} but holds record ${record.ref}`);
    return record;
  });
  return records;
}
