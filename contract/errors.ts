import { z } from 'zod';

/** The one error body every API failure answers with (PRODUCT.md §6). */
export const ApiErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
