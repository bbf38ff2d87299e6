// Messages between the server and its regeneration worker.

export interface RegenRequest {
  id: number;
  dir: string;
  haveSnapshot: boolean;
}

export type RegenReply =
  | {
      id: number;
      kind: 'built';
      /** Bytes, not strings: they arrive in the server as ArrayBuffers it wraps without a copy, off the V8 heap. */
      body: Uint8Array;
      bodyGzip: Uint8Array;
      etag: string;
      html: Uint8Array;
      inFlight: boolean;
    }
  | { id: number; kind: 'unchanged' }
  /** `reason`: a few words a viewer may see; `message`: the details, for the server's log only. */
  | { id: number; kind: 'error'; reason: string; message: string };
