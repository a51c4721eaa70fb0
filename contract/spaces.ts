import { z } from 'zod';
import { Id, Role, Timestamp } from './common.ts';
import { type Plan as PlanName, plans } from './constants/plans.ts';

/** Subscription plans (docs/product.md §4); their limits are `planTerms` in constants/plans.ts. */
export const Plan = z.enum(plans).meta({ id: 'Plan' });
export type Plan = PlanName;

/** True for an IANA time zone name the runtime knows. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}

const SpaceName = z.string().trim().min(1, 'Name the space.').max(80, 'Use at most 80 characters.');
const Description = z.string().max(10000, 'Use at most 10 000 characters.');
const TimeZone = z.string().max(64).refine(isTimeZone, 'Use an IANA time zone such as Europe/Paris.');
const RetentionDays = z.number().int().min(1, 'Keep data at least 1 day.').max(365);

export const CreateSpaceBody = z
  .object({
    name: SpaceName,
    description: Description.optional(),
    timeZone: TimeZone.optional(),
    retentionDays: RetentionDays.optional(),
  })
  .meta({ id: 'CreateSpaceBody' });
export type CreateSpaceBody = z.input<typeof CreateSpaceBody>;

export const UpdateSpaceBody = z
  .object({
    name: SpaceName.optional(),
    description: Description.optional(),
    timeZone: TimeZone.optional(),
    retentionDays: RetentionDays.optional(),
  })
  .strict()
  .meta({ id: 'UpdateSpaceBody' });
export type UpdateSpaceBody = z.input<typeof UpdateSpaceBody>;

export const DeleteSpaceBody = z.object({ confirmName: z.string().max(200) }).meta({ id: 'DeleteSpaceBody' });
export const TransferSpaceBody = z.object({ userId: Id }).meta({ id: 'TransferSpaceBody' });

/** One space as the settings page reads it. */
export const Space = z
  .object({
    id: Id,
    name: z.string(),
    description: z.string(),
    timeZone: z.string(),
    retentionDays: z.number().int(),
    plan: Plan,
    role: Role,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Space' });
export type Space = z.infer<typeof Space>;

/** Open alerts by severity (informational ones are not counted on the card). */
export const SeverityCounts = z.object({
  critical: z.number().int(),
  high: z.number().int(),
  medium: z.number().int(),
  low: z.number().int(),
});

/** One card of the /spaces page. */
export const SpaceCard = z
  .object({
    id: Id,
    name: z.string(),
    plan: Plan,
    role: Role,
    memberCount: z.number().int(),
    firewallCount: z.number().int(),
    openAlerts: SeverityCounts,
  })
  .meta({ id: 'SpaceCard' });
export type SpaceCard = z.infer<typeof SpaceCard>;
export const SpaceCardList = z.object({ items: z.array(SpaceCard) }).meta({ id: 'SpaceCardList' });
export type SpaceCardList = z.infer<typeof SpaceCardList>;
