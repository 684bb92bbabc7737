/** The part of tar-stream 2 (no types of its own) that contentgen uses: extract (tar.ts), pack (bench, tests). */
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export interface Headers {
    name: string;
    size?: number;
    type?: string;
  }
  export interface Extract extends Writable {
    on(event: 'entry', listener: (headers: Headers, stream: Readable, next: () => void) => void): this;
    on(event: string, listener: (...args: any[]) => void): this;
  }
  export function extract(): Extract;
  /** bench/import.ts writes archives with it. */
  export interface Pack extends Readable {
    entry(headers: Headers, body: string | Buffer): void;
    finalize(): void;
  }
  export function pack(): Pack;
  const tarStream: { extract: typeof extract; pack: typeof pack };
  export default tarStream;
}
