import type { User } from '@llmor/contracts';
import type { UserRow } from './repo';

export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    currency: row.currency,
    is_su: row.isSu,
    active: row.active,
    last_login: row.lastLogin?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
