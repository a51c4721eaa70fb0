import { gzipSync } from 'node:zlib';

/** Bytes after gzip at level 9, as every size in BENCHMARKS.md is given. */
export function gzipBytes(data: string | Uint8Array): number {
  return gzipSync(data, { level: 9 }).byteLength;
}
