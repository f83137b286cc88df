/**
 * Cutting a file into chunks (docs/protocol.md §4); kept apart from the chunked upload itself,
 * which loads on the first upload.
 * @module
 */

/** One chunk of a file: bytes `start` (inclusive) to `end` (exclusive). */
export interface ChunkRange {
  /** 0-based chunk index. */
  index: number;
  /** First byte. */
  start: number;
  /** One past the last byte. */
  end: number;
}

/** Throws a RangeError unless `value` is a safe integer >= `min`. @internal */
export function assertSize(value: number, what: string, min: number): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${what} must be an integer >= ${min}, got ${String(value)}`);
  }
}

/**
 * Cuts `size` bytes into chunks of `chunkSize` bytes (the last one may be shorter). A 0-byte
 * size gives no chunks.
 * @param size - total bytes, an integer >= 0
 * @param chunkSize - bytes per chunk, an integer >= 1
 * @throws RangeError when either value is not such an integer
 */
export function splitIntoChunks(size: number, chunkSize: number): ChunkRange[] {
  assertSize(size, 'size', 0);
  assertSize(chunkSize, 'chunkSize', 1);
  const chunks: ChunkRange[] = [];
  for (let index = 0, start = 0; start < size; index++, start += chunkSize) {
    chunks.push({ index, start, end: Math.min(start + chunkSize, size) });
  }
  return chunks;
}
