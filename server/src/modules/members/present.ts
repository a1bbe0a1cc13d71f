import type { Member } from '@llmor/contracts';
import type { MemberRow } from './repo';

/**
 * A member as their vendor sees them. While the invitation is pending only what the inviter typed is
 * shown, so inviting an address tells nothing about the account behind it.
 */
export function presentMember(row: MemberRow): Member {
  const pending = row.acceptedAt === null;
  return {
    id: row.user.id,
    firstname: pending ? row.invitedFirstname : row.user.firstname,
    lastname: pending ? row.invitedLastname : row.user.lastname,
    email: row.user.email,
    role: row.role,
    active: row.membershipActive && (pending || row.user.active),
    invited: pending,
    last_login: pending ? null : (row.user.lastLogin?.toISOString() ?? null),
    created_at: (pending ? row.invitedAt : row.user.createdAt).toISOString(),
  };
}
