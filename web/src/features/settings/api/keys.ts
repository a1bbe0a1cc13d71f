import type { MembersQuery } from '@llmor/contracts';

export const settingsKeys = {
  settings: (vendorId: number) => ['settings', vendorId, 'settings'] as const,
  members: (vendorId: number) => ['settings', vendorId, 'members'] as const,
  memberList: (vendorId: number, query: MembersQuery) => ['settings', vendorId, 'members', query] as const,
  member: (vendorId: number, userId: number) => ['settings', vendorId, 'members', userId] as const,
};
