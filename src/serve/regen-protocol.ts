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
      body: string;
      bodyGzip: Uint8Array;
      etag: string;
      html: string;
      live: boolean;
    }
  | { id: number; kind: 'unchanged' }
  | { id: number; kind: 'error'; message: string };
