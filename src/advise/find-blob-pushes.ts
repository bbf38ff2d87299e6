import type { TraceUpload } from '../collect/index.js';
import type { BlobPush } from './advise-input.js';

// A target's trace uploads → its blob pushes: the closing PUT of each upload session names the blob
// (`/v2/<repository>/blobs/uploads/<id>?…&digest=sha256:…`). A PUT the registry refused (a 500 the client then
// retried) stored nothing and is left out; one without a recorded status is kept. Pure.

const BLOB_PUT = /\/v2\/(.+?)\/blobs\/uploads\/[^?]*\?(.*)$/;

export function findBlobPushes(uploads: readonly TraceUpload[]): BlobPush[] {
  return uploads.flatMap((upload) => {
    if (upload.method !== 'PUT') return [];
    if (upload.status !== undefined && (upload.status < 200 || upload.status >= 300)) return [];
    let url: URL;
    try {
      url = new URL(upload.url);
    } catch {
      return [];
    }
    const match = BLOB_PUT.exec(url.pathname + url.search);
    const digest = url.searchParams.get('digest');
    if (!match || digest === null || !/^sha256:[0-9a-f]{64}$/.test(digest)) return [];
    return [
      {
        digest,
        repository: decodeURIComponent(match[1]!),
        bytes: upload.bytes,
        kind: upload.kind,
        startMs: upload.startMs,
        endMs: upload.endMs,
      },
    ];
  });
}
