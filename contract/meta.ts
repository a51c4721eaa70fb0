import { z } from 'zod';
import { Timestamp } from './common.ts';

export const Health = z.object({ status: z.literal('ok'), database: z.literal('ok') }).meta({ id: 'Health' });

/** A message of the development outbox. */
export const OutboxMessage = z
  .object({ id: z.uuid(), to: z.string(), subject: z.string(), text: z.string(), createdAt: Timestamp })
  .meta({ id: 'OutboxMessage' });
export type OutboxMessage = z.infer<typeof OutboxMessage>;
export const OutboxList = z.object({ items: z.array(OutboxMessage) }).meta({ id: 'OutboxList' });
