/**
 * Reading an import's body into records one at a time: a JSON record or array, or a zip archive whose entries are
 * read lazily (yauzl, one entry decompressed at a time, never the whole archive's contents in memory at once).
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
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

/** The largest record file a zip may hold (OSV's biggest records are far smaller). */
export const entryLimitBytes = 16 * 1024 * 1024;

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

function openZip(body: Uint8Array): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true },
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

async function entryText(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  const stream = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (error, s) => (error || !s ? reject(error) : resolve(s))),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A zip body: `total` is the central directory's entry count; each entry is read when the items ask for it. Files
 * not named `.json`, encrypted, too large or not decompressible are refused with the reason; directories are skipped.
 */
export async function zipSource(body: Uint8Array): Promise<ImportSource> {
  const zip = await openZip(body);
  return {
    total: zip.entryCount,
    close: () => zip.close(),
    items: (async function* () {
      try {
        for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
          const file = entry.fileName;
          if (file.endsWith('/')) {
            yield { file, skip: true as const };
            continue;
          }
          if (!file.toLowerCase().endsWith('.json')) {
            yield { file, checked: { ok: false, reason: 'Not a .json file: OSV records are JSON files.' } };
            continue;
          }
          if (entry.uncompressedSize > entryLimitBytes) {
            yield {
              file,
              checked: { ok: false, reason: `Larger than ${entryLimitBytes / 1024 / 1024} MiB uncompressed.` },
            };
            continue;
          }
          if ((entry.generalPurposeBitFlag & 1) !== 0) {
            yield { file, checked: { ok: false, reason: 'Encrypted entries cannot be read.' } };
            continue;
          }
          let text: string;
          try {
            text = await entryText(zip, entry);
          } catch (error) {
            yield { file, checked: { ok: false, reason: `Cannot be decompressed: ${(error as Error).message}` } };
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
