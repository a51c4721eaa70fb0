import { eq } from 'drizzle-orm';
import { AcceptedInvitation, InvitationPreview, InvitationTokenParams } from '../../contract/members.ts';
import { invitations } from '../db/schema/invitations.ts';
import { spaces } from '../db/schema/spaces.ts';
import { ApiError, notFound } from '../errors.ts';
import { createRouter, json, route } from '../router.ts';
import { hashToken } from '../services/shared/tokens.ts';
import { acceptInvitation } from '../services/spaces/invitations.ts';

/** Invitation links: preview (for the accept screen) and accept. */
export const invitationRoutes = createRouter()
  .openapi(
    route('anonymous', {
      method: 'get',
      path: '/{token}',
      summary: 'What an invitation link offers: space, address, role (whoever holds the link)',
      request: { params: InvitationTokenParams },
      responses: { 200: json(InvitationPreview, 'The invitation') },
    }),
    async (c) => {
      const { token } = c.req.valid('param');
      const [row] = await c.var.deps.db
        .select({ invitation: invitations, spaceName: spaces.name })
        .from(invitations)
        .innerJoin(spaces, eq(spaces.id, invitations.spaceId))
        .where(eq(invitations.tokenHash, hashToken(token)));
      if (!row) throw notFound('invitation');
      const { invitation: i, spaceName } = row;
      if (i.acceptedAt) throw new ApiError(409, 'token_used', 'This invitation was already used.');
      if (i.expiresAt <= c.var.deps.now())
        throw new ApiError(422, 'token_expired', 'This invitation has expired; ask for a new one.');
      return c.json(
        { id: i.id, spaceId: i.spaceId, spaceName, email: i.email, role: i.role, expiresAt: i.expiresAt.toISOString() },
        200,
      );
    },
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/{token}/accept',
      summary: 'Accept an invitation (single use, 7 days) as the signed-in user with the invited address',
      request: { params: InvitationTokenParams },
      responses: { 200: json(AcceptedInvitation, 'Now a member') },
    }),
    async (c) => {
      const { token } = c.req.valid('param');
      return c.json(await acceptInvitation(c, eq(invitations.tokenHash, hashToken(token))), 200);
    },
  );
