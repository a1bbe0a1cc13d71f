import type { AppManifestInput } from './manifest';

/** The smallest app: a system prompt over the completion model. */
export const generic: AppManifestInput = {
  app_key: 'generic',
  name: 'Generic App',
  description: 'A minimal app: a system prompt over the completion model.',
  type: 'generic',
  icon: 'icon:apps',
  parameters: [
    {
      name: 'system_prompt',
      type: 'text',
      params: { label: 'System prompt', multiline: true, visual_grid: 12 },
    },
  ],
  defaults: { system_prompt: 'You are a helpful assistant.' },
};
