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
      live: boolean;
    }
  | { id: number; kind: 'unchanged' }
  | { id: number; kind: 'error'; message: string };
