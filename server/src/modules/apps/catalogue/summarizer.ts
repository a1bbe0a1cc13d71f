import type { AppManifestInput } from './manifest';

/** One-shot: summarises the input text. */
export const summarizer: AppManifestInput = {
  app_key: 'summarizer',
  name: 'Summarizer',
  description: 'Summarises a text in a few sentences.',
  type: 'oneshot',
  icon: 'icon:file-text',
  parameters: [
    {
      name: 'prompt_template',
      type: 'text',
      params: {
        label: 'Prompt template',
        description: '{{input}} is replaced by the text to summarise.',
        multiline: true,
        max_length: 20000,
        visual_grid: 12,
      },
    },
    {
      name: 'temperature',
      type: 'number',
      params: { label: 'Temperature', min: 0, max: 2, step: 0.1, visual_grid: 6 },
    },
  ],
  defaults: {
    prompt_template:
      'Summarise the following text in at most three sentences, in the language of the text.\n\n{{input}}',
    temperature: 0.3,
  },
};
