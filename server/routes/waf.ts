import { SpaceParams } from '../../contract/common.ts';
import { FirewallConflict } from '../../contract/firewalls.ts';
import {
  ApplyRemedyBody,
  DiscoverAnswer,
  DiscoverQuery,
  Remedy,
  RemedyPreview,
  RemedyResult,
} from '../../contract/waf.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import { wafDiscover } from '../services/waf/discover.ts';
import { applyRemedy, previewRemedy } from '../services/waf/remedies.ts';

/** WAF discover and its remedies (docs/product.md §7): every member reads and previews, admins and owners apply. */
export const wafRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/waf-discover',
      summary:
        'WAF events of a range (default the last 24 h) grouped by client IP, rule, path or country, each with its counts, top rule and sparkline',
      request: { params: SpaceParams, query: DiscoverQuery },
      responses: { 200: json(DiscoverAnswer, 'The groups, largest first by the chosen order') },
    }),
    async (c) => c.json(await wafDiscover(inSpace(c), c.req.valid('query')), 200),
  )
  .openapi(
    route('viewer', {
      method: 'post',
      path: '/{spaceId}/waf-remedies/preview',
      summary:
        'What a remedy would change: the requests and IPs of the last 7 days it matches, one sentence and the compiled files that differ; nothing is stored',
      request: { params: SpaceParams, body: body(Remedy) },
      responses: { 200: json(RemedyPreview, 'The preview, against the firewall’s current version') },
    }),
    async (c) => c.json(await previewRemedy(inSpace(c), c.req.valid('json')), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/waf-remedies',
      summary:
        'Apply a remedy as the firewall’s next version, which its connector pulls. `version` is the one the preview showed: a newer one answers 409',
      request: { params: SpaceParams, body: body(ApplyRemedyBody) },
      responses: {
        201: json(RemedyResult, 'The firewall at its new version'),
        409: json(FirewallConflict, 'The firewall has a newer version than the preview, or already does this'),
      },
    }),
    async (c) => c.json(await applyRemedy(inSpace(c), c.req.valid('json')), 201),
  );
