import { z } from 'zod';
import { SpaceParams } from '../../contract/common.ts';
import { crsApplications } from '../../contract/constants/firewalls.ts';
import { createRouter, json, route } from '../router.ts';
import { loadCrsCatalog } from '../services/firewalls/engine/crs-catalog.ts';

/** One CRS rule file as the console lists it under Managed rules. */
const CatalogGroup = z.object({
  name: z.string(),
  title: z.string(),
  kind: z.enum(['request', 'response']),
  /** False for the files that hold the CRS together: the console shows them, always on. */
  optional: z.boolean(),
  application: z.enum(crsApplications).optional(),
  ruleCount: z.number().int(),
  firstRuleId: z.number().int().nullable(),
  lastRuleId: z.number().int().nullable(),
});

/** What the installed CRS offers, read-only: its version, rule groups with their names, application packages. */
const FirewallCatalog = z
  .object({ version: z.string(), groups: z.array(CatalogGroup), applications: z.array(z.enum(crsApplications)) })
  .meta({ id: 'FirewallCatalog' });

/** The installed CRS's rule groups and packages, for the firewall configuration screen (Managed rules). */
export const firewallCatalogRoutes = createRouter().openapi(
  route('viewer', {
    method: 'get',
    path: '/{spaceId}/firewall-catalog',
    summary:
      'The installed OWASP CRS: version, rule groups (file name, readable title, rule ids) and application packages',
    request: { params: SpaceParams },
    responses: { 200: json(FirewallCatalog, 'The CRS catalog') },
  }),
  async (c) => {
    const catalog = loadCrsCatalog();
    return c.json(
      {
        version: catalog.version,
        groups: catalog.groups.map((group) => ({
          name: group.name,
          title: group.title,
          kind: group.kind,
          optional: group.optional,
          ...(group.application ? { application: group.application } : {}),
          ruleCount: group.ruleIds.length,
          firstRuleId: group.ruleIds[0] ?? null,
          lastRuleId: group.ruleIds.at(-1) ?? null,
        })),
        applications: catalog.applications,
      },
      200,
    );
  },
);
