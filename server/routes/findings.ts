import { SpaceParams } from '../../contract/common.ts';
import {
  AssessBody,
  Assessment,
  AssessmentList,
  AssetVexParams,
  BulkFindingAnswer,
  BulkFindingBody,
  Finding,
  FindingDetail,
  FindingList,
  FindingParams,
  FindingQuery,
  FindingTrend,
  UpdateFindingBody,
  VexDocument,
  VirtualPatchBody,
  VirtualPatchPreview,
  VirtualPatchResult,
} from '../../contract/findings.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import { findingTrend, listAssessments, runAssessment } from '../services/vulns/assessments/run.ts';
import { getFinding } from '../services/vulns/findings/detail.ts';
import { listFindings } from '../services/vulns/findings/list.ts';
import { bulkUpdateFindings, updateFinding } from '../services/vulns/findings/triage.ts';
import { assetVex } from '../services/vulns/findings/vex.ts';
import { applyPatch, previewPatch, removePatch } from '../services/vulns/patches/patches.ts';

/**
 * Assessments and findings of a space (docs/product.md §7): everyone reads; admins run assessments and make
 * virtual patches (a firewall change); analysts and up triage.
 */
export const findingRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/assessments',
      summary: 'The space’s assessments, newest first (at most 100), each with the open findings by severity it left',
      request: { params: SpaceParams },
      responses: { 200: json(AssessmentList, 'The assessments') },
    }),
    async (c) => c.json(await listAssessments(inSpace(c)), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/assessments',
      summary:
        'Match one asset’s inventory (or every asset’s) against the library now: new findings open, findings no longer present are fixed, triage decisions are kept',
      request: { params: SpaceParams, body: body(AssessBody) },
      responses: { 201: json(Assessment, 'The assessment') },
    }),
    async (c) => c.json(await runAssessment(inSpace(c), c.req.valid('json')), 201),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/findings',
      summary:
        'Findings, newest first, filtered by asset, status, severity, ecosystem and text; with counts by status and open counts by severity',
      request: { params: SpaceParams, query: FindingQuery },
      responses: { 200: json(FindingList, 'A page of findings') },
    }),
    async (c) => c.json(await listFindings(inSpace(c), c.req.valid('query')), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/findings/trend',
      summary: 'Open findings by severity after each assessment, oldest first (the trend)',
      request: { params: SpaceParams },
      responses: { 200: json(FindingTrend, 'The trend') },
    }),
    async (c) => c.json(await findingTrend(inSpace(c)), 200),
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/findings/bulk',
      summary:
        'The same triage decision for many findings (fixed ones, and mitigated ones a reopen cannot touch, are passed over)',
      request: { params: SpaceParams, body: body(BulkFindingBody) },
      responses: { 200: json(BulkFindingAnswer, 'The findings after the change') },
    }),
    async (c) => c.json(await bulkUpdateFindings(inSpace(c), c.req.valid('json')), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/findings/{id}',
      summary: 'One finding with its decisions (the triage record), its virtual patches and the record’s references',
      request: { params: FindingParams },
      responses: { 200: json(FindingDetail, 'The finding') },
    }),
    async (c) => c.json(await getFinding(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('analyst', {
      method: 'patch',
      path: '/{spaceId}/findings/{id}',
      summary:
        'Triage: open, not affected (with a CycloneDX VEX justification) or risk accepted (with a reason and an end, when it opens again)',
      request: { params: FindingParams, body: body(UpdateFindingBody) },
      responses: { 200: json(Finding, 'The finding') },
    }),
    async (c) => c.json(await updateFinding(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/findings/{id}/virtual-patch/preview',
      summary:
        'What a virtual patch would change on the firewall (the compiled files that differ), without changing it',
      request: { params: FindingParams, body: body(VirtualPatchBody) },
      responses: { 200: json(VirtualPatchPreview, 'The change') },
    }),
    async (c) => c.json(await previewPatch(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/findings/{id}/virtual-patch',
      summary:
        'Make a virtual patch: a custom rule blocking the path (or a CRS rule group enabled) as a new firewall version; the finding is mitigated while the firewall keeps it',
      request: { params: FindingParams, body: body(VirtualPatchBody) },
      responses: { 201: json(VirtualPatchResult, 'The finding, mitigated, and the firewall version') },
    }),
    async (c) => {
      const { finding, version } = await applyPatch(inSpace(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ finding, version }, 201);
    },
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/findings/{id}/virtual-patch',
      summary:
        'Take the finding’s virtual patch off its firewall (a new version); the finding opens again. A finding without a patch is answered as it is',
      request: { params: FindingParams },
      responses: { 200: json(Finding, 'The finding, open again') },
    }),
    async (c) => c.json(await removePatch(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/assets/{id}/vex',
      summary: 'The asset’s findings as a CycloneDX 1.5 VEX document (analysis state, justification, response)',
      request: { params: AssetVexParams },
      responses: {
        200: {
          description: 'The VEX document, as a download',
          headers: {
            'Content-Disposition': {
              description: 'attachment; filename="{asset}.vex.cdx.json"',
              schema: { type: 'string' },
            },
          },
          content: { 'application/json': { schema: VexDocument } },
        },
      },
    }),
    async (c) => {
      const { fileName, document } = await assetVex(inSpace(c), c.req.valid('param').id);
      return c.json(document, 200, { 'Content-Disposition': `attachment; filename="${fileName}"` });
    },
  );
