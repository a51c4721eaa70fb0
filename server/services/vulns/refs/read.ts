/**
 * Reading an import's body into records one at a time: a JSON record or array, or a zip archive whose entries are
 * read lazily (yauzl, one entry decompressed at a time, never the whole archive's contents in memory at once).
 *
 * A zip is a zip bomb until shown otherwise. Before anything is read, its central directory is walked: too many
 * entries, entries whose data overlap (one deflated stream counted many times), or sizes the directory itself says
 * are past the caps refuse the whole archive. While inflating, the bytes are counted as they come out, whatever the
 * directory claims: an entry past `zipEntryRatio` times its compressed size, or the archive past `zipInflatedBytes`,
 * stops the import there with the reason.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { vulnLimits } from '../../../../contract/constants/vulns.ts';
import { type Checked, checkRecord, checkRecordText } from './validate.ts';

/** One file (or array item) of an import, checked; `skip` for what is no record at all (a zip's directories). */
export type ReadItem = { file: string; checked: Checked } | { file: string; skip: true };

/** What an import body holds: how many items, and the items in order. */
export type ImportSource = {
  total: number;
  items: AsyncIterable<ReadItem>;
  /** Lets go of what the source holds open, when its items are not read to the end. */
  close?: () => void;
};

/** A body that cannot be read at all: the import fails with this message. */
export class UnreadableImport extends Error {}

/** A JSON body: one record (`file` is the upload's name) or an array (`name[3]`). */
export function jsonSource(body: Uint8Array, name: string): ImportSource {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch (error) {
    throw new UnreadableImport(`The file is not JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(value) ? value : [value];
  const label = (i: number) => (Array.isArray(value) ? `${name}[${i}]` : name);
  return {
    total: list.length,
    items: (async function* () {
      for (let i = 0; i < list.length; i++) yield { file: label(i), checked: checkRecord(list[i]) };
    })(),
  };
}

/** The caps of a zip import (`vulnLimits`; tests pass smaller ones). */
export type ZipCaps = {
  /** Entries of the archive. */
  entries: number;
  /** Bytes the whole archive may inflate to. */
  inflatedBytes: number;
  /** How many times its compressed size one entry may inflate to. */
  entryRatio: number;
  /** Bytes one record file may inflate to; a larger one is refused (that file only). */
  entryBytes: number;
};

export const zipCaps: ZipCaps = {
  entries: vulnLimits.zipEntries,
  inflatedBytes: vulnLimits.zipInflatedBytes,
  entryRatio: vulnLimits.zipEntryRatio,
  entryBytes: vulnLimits.zipEntryBytes,
};

const sizeWords = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GiB` : `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB`;

/** Why a zip is refused whole, each naming the archive and the rule. */
const refusals = {
  entries: (name: string, count: number, caps: ZipCaps) =>
    `${name}: ${count.toLocaleString('en')} entries, more than the ${caps.entries.toLocaleString('en')} an import reads: refused.`,
  overlap: (name: string) => `${name}: entries overlap (a zip bomb): refused.`,
  ratio: (name: string, file: string, caps: ZipCaps) =>
    `${name}: ${file} inflates to more than ${caps.entryRatio} times its compressed size (a zip bomb): refused.`,
  inflated: (name: string, caps: ZipCaps) =>
    `${name}: more than ${sizeWords(caps.inflatedBytes)} once decompressed (a zip bomb, or an archive to split): refused.`,
};

function openZip(body: Uint8Array): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      // Sizes are not taken on trust: the reader counts what comes out of each entry itself (`entryText`).
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: false },
      (error, zip) =>
        error || !zip
          ? reject(new UnreadableImport(`The zip archive cannot be read: ${error?.message}`))
          : resolve(zip),
    );
  });
}

/** The next entry of a lazy zip, or null at its end. */
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => {
      done();
      resolve(entry);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (error: Error) => {
      done();
      reject(new UnreadableImport(`The zip archive cannot be read: ${error.message}`));
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

const isDirectory = (entry: yauzl.Entry) => entry.fileName.endsWith('/');

/** Why one file of a zip is not read (the rest of the archive is), or null for a record file to decompress. */
function skipReason(entry: yauzl.Entry, caps: ZipCaps): string | null {
  if (!entry.fileName.toLowerCase().endsWith('.json')) return 'Not a .json file: OSV records are JSON files.';
  if (entry.uncompressedSize > caps.entryBytes) return `Larger than ${sizeWords(caps.entryBytes)} uncompressed.`;
  if ((entry.generalPurposeBitFlag & 1) !== 0) return 'Encrypted entries cannot be read.';
  return null;
}

/**
 * Walks the central directory before anything is read and refuses the archive, with the reason, when it holds too
 * many entries, when the data of two entries overlap (the bytes from a local header to the end of its compressed
 * data), or when the sizes it declares already break a cap.
 */
async function checkDirectory(body: Uint8Array, name: string, caps: ZipCaps): Promise<void> {
  const zip = await openZip(body);
  try {
    if (zip.entryCount > caps.entries) throw new UnreadableImport(refusals.entries(name, zip.entryCount, caps));
    const starts = new Float64Array(zip.entryCount);
    const ends = new Float64Array(zip.entryCount);
    let count = 0;
    let declared = 0;
    let tooDense: string | null = null;
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      const start = entry.relativeOffsetOfLocalHeader;
      // Where the data start, from the local header (its name and extra field may differ from the directory's).
      const dataStart = await zip
        .readLocalFileHeaderPromise(entry, { minimal: true })
        .then((header) => header.fileDataStart)
        .catch(() => start + 30 + entry.fileNameLength);
      starts[count] = start;
      ends[count] = dataStart + entry.compressedSize;
      count++;
      if (isDirectory(entry) || skipReason(entry, caps) !== null) continue;
      declared += entry.uncompressedSize;
      if (tooDense === null && entry.uncompressedSize > caps.entryRatio * Math.max(entry.compressedSize, 1)) {
        tooDense = entry.fileName;
      }
    }
    const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => (starts[a] ?? 0) - (starts[b] ?? 0));
    for (let i = 1; i < order.length; i++) {
      if ((starts[order[i] ?? 0] ?? 0) < (ends[order[i - 1] ?? 0] ?? 0))
        throw new UnreadableImport(refusals.overlap(name));
    }
    if (tooDense !== null) throw new UnreadableImport(refusals.ratio(name, tooDense, caps));
    if (declared > caps.inflatedBytes) throw new UnreadableImport(refusals.inflated(name, caps));
  } finally {
    zip.close();
  }
}

/** A record file larger than `entryBytes` once inflated: that file is refused, the import goes on. */
class EntryTooLarge extends Error {}

/**
 * One entry's text, its bytes counted as they come out of the inflater: past `entryRatio` times the entry's
 * compressed size, or past the archive's `inflatedBytes` in all (`inflated` is the running count), the import is
 * refused; past `entryBytes`, the file is.
 */
async function entryText(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  inflated: { bytes: number },
  name: string,
  caps: ZipCaps,
): Promise<string> {
  const stream = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (error, s) => (error || !s ? reject(error) : resolve(s))),
  );
  const ratioCap = caps.entryRatio * Math.max(entry.compressedSize, 1);
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early (a throw) destroys the stream: nothing more is inflated.
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    inflated.bytes += chunk.length;
    if (inflated.bytes > caps.inflatedBytes) throw new UnreadableImport(refusals.inflated(name, caps));
    if (size > ratioCap) throw new UnreadableImport(refusals.ratio(name, entry.fileName, caps));
    if (size > caps.entryBytes) throw new EntryTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A zip body: `total` is the central directory's entry count; each entry is read when the items ask for it, after
 * the directory passed `checkDirectory` (which refuses the archive with `UnreadableImport`). Files not named
 * `.json`, encrypted, too large or not decompressible are refused with the reason; directories are skipped. `name`
 * (the upload's file name) starts the reasons an archive is refused for.
 */
export async function zipSource(body: Uint8Array, name: string, caps: ZipCaps = zipCaps): Promise<ImportSource> {
  await checkDirectory(body, name, caps);
  const zip = await openZip(body);
  const inflated = { bytes: 0 };
  return {
    total: zip.entryCount,
    close: () => zip.close(),
    items: (async function* () {
      try {
        for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
          const file = entry.fileName;
          if (isDirectory(entry)) {
            yield { file, skip: true as const };
            continue;
          }
          const skipped = skipReason(entry, caps);
          if (skipped !== null) {
            yield { file, checked: { ok: false, reason: skipped } };
            continue;
          }
          let text: string;
          try {
            text = await entryText(zip, entry, inflated, name, caps);
          } catch (error) {
            if (error instanceof UnreadableImport) throw error;
            const reason =
              error instanceof EntryTooLarge
                ? `Larger than ${sizeWords(caps.entryBytes)} uncompressed.`
                : `Cannot be decompressed: ${(error as Error).message}`;
            yield { file, checked: { ok: false, reason } };
            continue;
          }
          yield { file, checked: checkRecordText(text) };
        }
      } finally {
        zip.close();
      }
    })(),
  };
}
