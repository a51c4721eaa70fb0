import { z } from 'zod';
import { Timestamp } from './common.ts';

export const Health = z.object({ status: z.literal('ok'), database: z.literal('ok') }).meta({ id: 'Health' });

/** A message of the development outbox. */
export const OutboxMessage = z
  .object({ id: z.uuid(), to: z.string(), subject: z.string(), text: z.string(), createdAt: Timestamp })
  .meta({ id: 'OutboxMessage' });
export type OutboxMessage = z.infer<typeof OutboxMessage>;
export const OutboxList = z.object({ items: z.array(OutboxMessage) }).meta({ id: 'OutboxList' });

/** What the development API seeds into the caller's own "Demo shop": a week of the demo's traffic (tests use fewer). */
export const DemoSeedBody = z
  .object({
    events: z.number().int().min(0).max(40_000).default(3000),
    seed: z.number().int().min(0).default(2026),
  })
  .strict()
  .meta({ id: 'DemoSeedBody' });
export const DemoSeeded = z
  .object({ spaceId: z.uuid(), firewallId: z.uuid(), accepted: z.number().int() })
  .meta({ id: 'DemoSeeded' });
