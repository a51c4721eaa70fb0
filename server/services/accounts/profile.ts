import type { Me } from '../../../contract/me.ts';
import type { User } from '../../db/schema/users.ts';

/** Database rows as the API shows them. */
export const serialize = {
  me(user: User): Me {
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      pendingEmail: user.pendingEmail,
      colorMode: user.colorMode,
      lastSpaceId: user.lastSpaceId,
      createdAt: user.createdAt.toISOString(),
    };
  },
};
