import { z } from 'zod';
import { Email } from './auth.ts';
import { Id, Role, Timestamp } from './common.ts';

/** A person a record names (its author, its actor, an assignee), as far as the console still knows them. */
export const Person = z.object({ id: Id.nullable(), name: z.string().nullable() });

export const Member = z
  .object({ userId: Id, name: z.string(), email: z.string(), role: Role, joinedAt: Timestamp })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof Member>;
export const MemberList = z.object({ items: z.array(Member) }).meta({ id: 'MemberList' });

export const MemberParams = z.object({ spaceId: Id, userId: Id });
export const UpdateMemberBody = z.object({ role: Role }).meta({ id: 'UpdateMemberBody' });

export const Invitation = z
  .object({
    id: Id,
    email: z.string(),
    role: Role,
    invitedBy: z.string().nullable(),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;
export const InvitationList = z.object({ items: z.array(Invitation) }).meta({ id: 'InvitationList' });

export const InviteBody = z.object({ email: Email, role: Role }).meta({ id: 'InviteBody' });
export type InviteBody = z.input<typeof InviteBody>;
export const InvitationParams = z.object({ spaceId: Id, invitationId: Id });

/** An invitation as its invitee sees it, before accepting. */
export const InvitationPreview = z
  .object({ id: Id, spaceId: Id, spaceName: z.string(), email: z.string(), role: Role, expiresAt: Timestamp })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof InvitationPreview>;
export const InvitationPreviewList = z
  .object({ items: z.array(InvitationPreview) })
  .meta({ id: 'InvitationPreviewList' });
export const InvitationTokenParams = z.object({ token: z.string().min(10).max(200) });
export const AcceptedInvitation = z.object({ spaceId: Id, role: Role }).meta({ id: 'AcceptedInvitation' });
