export const slackKeys = {
  integration: (vendorId: number, appId: string) => ['slack', vendorId, appId] as const,
};

export const slackPath = (vendorId: number, appId: string) =>
  `/v1/vendors/${vendorId}/apps/${appId}/integrations/slack`;
