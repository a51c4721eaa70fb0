/** Zip imports inflate no more than their caps, counted while inflating whatever the archive declares. */
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, test } from 'vitest';
import { generatedRecord, type RawFile, rawZip } from '../../../../tests/fixtures/osv/zip.ts';
import { type ReadItem, UnreadableImport, type ZipCaps, zipSource } from './read.ts';

/** Small caps, so that a few hundred KiB show what 1 GiB would. */
const caps: ZipCaps = { entries: 100, inflatedBytes: 1024 * 1024, entryRatio: 100, entryBytes: 512 * 1024 };

/** Text that deflate cannot shrink much (a record padded with it keeps a ratio of about two). */
function noise(bytes: number): string {
  let state = 1;
  let out = '';
  while (out.length < bytes) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += state.toString(16);
  }
  return out.slice(0, bytes);
}

/** A record file of about `bytes` once inflated, declaring `declared` as its size (its real size by default). */
function recordFile(i: number, bytes: number, declared?: number): RawFile {
  const data = strToU8(JSON.stringify({ ...generatedRecord(i), details: noise(bytes) }));
  return { name: `npm/${i}.json`, data: deflateSync(data), size: declared ?? data.length };
}

/** Reads the items until the end or a refusal: what was read, and the refusal. */
async function readAll(zip: Uint8Array) {
  const source = await zipSource(zip, 'small.zip', caps);
  const read: ReadItem[] = [];
  try {
    for await (const item of source.items) read.push(item);
    return { read, refused: null };
  } catch (error) {
    if (!(error instanceof UnreadableImport)) throw error;
    return { read, refused: error.message };
  }
}

describe('the archive’s inflated bytes are capped', () => {
  test('by its declared sizes before anything is read', async () => {
    const zip = rawZip([300, 300, 300, 300].map((kib, i) => recordFile(i, kib * 1024)));
    await expect(zipSource(zip, 'small.zip', caps)).rejects.toThrow(
      'small.zip: more than 1 MiB once decompressed (a zip bomb, or an archive to split): refused.',
    );
  });

  test('by the bytes counted while inflating, when the sizes declared are lies', async () => {
    const zip = rawZip([300, 300, 300, 300, 300].map((kib, i) => recordFile(i, kib * 1024, 1_000)));
    const { read, refused } = await readAll(zip);
    expect(refused).toBe('small.zip: more than 1 MiB once decompressed (a zip bomb, or an archive to split): refused.');
    // Three files make 900 KiB; the fourth passes the cap and stops the reading there.
    expect(read.map((item) => item.file)).toEqual(['npm/0.json', 'npm/1.json', 'npm/2.json']);
    expect(read.every((item) => 'checked' in item && item.checked.ok)).toBe(true);
  });

  test('a file larger than a record file may be is refused alone, even when it says it is small', async () => {
    const zip = rawZip([recordFile(0, 600 * 1024, 1_000), recordFile(1, 10 * 1024)]);
    const { read, refused } = await readAll(zip);
    expect(refused).toBeNull();
    expect(read).toEqual([
      { file: 'npm/0.json', checked: { ok: false, reason: 'Larger than 0.5 MiB uncompressed.' } },
      { file: 'npm/1.json', checked: expect.objectContaining({ ok: true }) },
    ]);
  });
});
