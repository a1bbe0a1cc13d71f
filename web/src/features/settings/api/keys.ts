export const settingsKeys = {
  settings: (vendorId: number) => ['settings', vendorId, 'settings'] as const,
  members: (vendorId: number) => ['settings', vendorId, 'members'] as const,
  member: (vendorId: number, userId: number) => ['settings', vendorId, 'members', userId] as const,
};
