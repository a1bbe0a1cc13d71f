import type { AppManifestInput } from './manifest';

/** A scripted app: `on_message(ctx)` in Lua decides every reply (docs/reference/api.md: Silicon apps). */
export const silicon: AppManifestInput = {
  app_key: 'silicon',
  name: 'Silicon Script',
  description: 'An app whose replies are computed by a Lua script.',
  type: 'silicon',
  icon: 'icon:code',
  parameters: [
    {
      name: 'header_script',
      type: 'visual.header',
      params: {
        title: 'Script',
        subtitle: 'on_message(ctx) is called for every user message; what it returns is the reply.',
      },
    },
    {
      name: 'silicon',
      type: 'silicon',
      params: { label: 'Lua code', visual_grid: 12 },
    },
  ],
  defaults: {
    silicon: 'function on_message(ctx)\n  return "You said: " .. ctx.message\nend\n',
  },
};
