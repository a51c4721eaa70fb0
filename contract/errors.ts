import { z } from 'zod';
import { limitNames } from './constants/limits.ts';
import { plans } from './constants/plans.ts';

/** The one error body every API failure answers with (docs/product.md §6). */
export const ApiErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional(),
      /** With 402 `plan_limit`: the limit reached (server/services/limits/limits.ts). */
      limit: z.enum(limitNames).optional(),
      /** With 402 `plan_limit`: the space's plan. */
      plan: z.enum(plans).optional(),
      /** With 402 `plan_limit`: the cheapest plan that lifts the limit; null when none does. */
      upgradeTo: z.enum(plans).nullable().optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
