import { bodyLimit } from 'hono/body-limit';
import { SpaceParams } from '../../contract/common.ts';
import { vulnLimits } from '../../contract/constants/vulns.ts';
import {
  ImportQuery,
  VulnImport,
  VulnImportList,
  VulnImportParams,
  VulnRefDetail,
  VulnRefList,
  VulnRefParams,
  VulnRefQuery,
} from '../../contract/vuln-refs.ts';
import { inSpace } from '../caller.ts';
import { ApiError } from '../errors.ts';
import { createRouter, json, route } from '../router.ts';
import { startImport } from '../services/vulns/refs/import.ts';
import { getImport, getRef, importView, listImports, listRefs } from '../services/vulns/refs/library.ts';

/**
 * The body limit of imports (an OSV all.zip is large), which the app applies instead of its 1 MiB limit on
 * `vulnImportPath`, before the middleware that reads JSON bodies.
 */
export const importBodyLimit = bodyLimit({
  maxSize: vulnLimits.importBytes,
  onError: () => {
    throw new ApiError(
      413,
      'payload_too_large',
      `Imports are limited to ${vulnLimits.importBytes / 1024 / 1024} MiB; split the archive.`,
    );
  },
});

/** The app's path of the import, whose body limit is this router's (`vulnLimits.importBytes`). */
export const vulnImportPath = /^\/api\/spaces\/[^/]+\/vuln-refs\/?$/;

/** The vulnerability reference library of a space (docs/product.md §7): everyone reads, admins import. */
export const vulnRefRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/vuln-refs',
      summary:
        'OSV records, newest `modified` first: `q` searches ids, aliases (CVE), package names and summaries; filters by ecosystem, severity and modified date',
      request: { params: SpaceParams, query: VulnRefQuery },
      responses: { 200: json(VulnRefList, 'A page of records') },
    }),
    async (c) => c.json(await listRefs(inSpace(c), c.req.valid('query')), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/vuln-refs',
      summary:
        'Import OSV records (schema 1.x): a JSON record or array, or a zip of record files (such as OSV’s all.zip). JSON up to 1 MiB is imported at once (200); a zip or larger JSON is queued (202) and its progress read at `.../vuln-refs/imports/{id}`. Records are upserted by id; an older `modified` never overwrites a newer one.',
      request: {
        params: SpaceParams,
        query: ImportQuery,
        // Documented only (no zod schema, so no validator reads it): the service reads the body as bytes.
        body: {
          required: true,
          description: `One OSV record, an array of them, or a zip of record files; at most ${vulnLimits.importBytes / 1024 / 1024} MiB.`,
          content: {
            'application/json': { schema: { type: 'object', description: 'An OSV record or an array of records' } },
            'application/zip': { schema: { type: 'string', format: 'binary' } },
          },
        },
      },
      responses: {
        200: json(VulnImport, 'Imported: the counts and the refused records with their reasons'),
        202: json(VulnImport, 'Queued: follow the import’s progress'),
      },
    }),
    async (c) => {
      const sc = inSpace(c);
      const body = new Uint8Array(await c.req.arrayBuffer());
      const { row, done } = await startImport(sc, {
        body,
        contentType: c.req.header('content-type') ?? '',
        fileName: c.req.valid('query').fileName ?? null,
      });
      return done ? c.json(importView(row), 200) : c.json(importView(row), 202);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/vuln-refs/imports',
      summary: 'The 20 newest imports, running ones included, with their progress',
      request: { params: SpaceParams },
      responses: { 200: json(VulnImportList, 'Imports') },
    }),
    async (c) => c.json(await listImports(inSpace(c)), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/vuln-refs/imports/{id}',
      summary: 'One import: files read of total, counts, the refused files with their reasons, its status',
      request: { params: VulnImportParams },
      responses: { 200: json(VulnImport, 'The import') },
    }),
    async (c) => c.json(await getImport(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/vuln-refs/{id}',
      summary: 'One record (its id URL-encoded: OSV ids hold `-`, `:` and `.`): severities scored, ranges in words',
      request: { params: VulnRefParams },
      responses: { 200: json(VulnRefDetail, 'The record') },
    }),
    async (c) => c.json(await getRef(inSpace(c), c.req.valid('param').id), 200),
  );
