import { AcceptedInvitation, InvitationPreview, InvitationTokenParams } from '../../contract/members.ts';
import { signedIn } from '../caller.ts';
import { createRouter, json, route } from '../router.ts';
import { acceptInvitation, previewInvitation } from '../services/spaces/invitations.ts';

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
    async (c) => c.json(await previewInvitation(c.var.deps, c.req.valid('param').token), 200),
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/{token}/accept',
      summary: 'Accept an invitation (single use, 7 days) as the signed-in user with the invited address',
      request: { params: InvitationTokenParams },
      responses: { 200: json(AcceptedInvitation, 'Now a member') },
    }),
    async (c) => c.json(await acceptInvitation(signedIn(c), { token: c.req.valid('param').token }), 200),
  );
