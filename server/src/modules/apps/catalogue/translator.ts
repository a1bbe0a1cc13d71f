import type { AppManifestInput } from './manifest';

/** One-shot: translates the input into the chosen language. */
export const translator: AppManifestInput = {
  app_key: 'translator',
  name: 'Translator',
  description: 'Translates a text into the target language.',
  type: 'oneshot',
  icon: 'icon:language',
  parameters: [
    {
      name: 'target_language',
      type: 'select',
      params: {
        label: 'Target language',
        placeholder: 'Choose a language',
        options: {
          English: 'English',
          German: 'German',
          'Swiss German': 'Swiss German',
          French: 'French',
          Italian: 'Italian',
          Spanish: 'Spanish',
        },
        visual_grid: 6,
      },
    },
    {
      name: 'temperature',
      type: 'number',
      params: { label: 'Temperature', min: 0, max: 2, step: 0.1, visual_grid: 6 },
    },
    {
      name: 'prompt_template',
      type: 'text',
      params: {
        label: 'Prompt template',
        description: '{{input}} is replaced by the text, {{target_language}} by the target language.',
        multiline: true,
        max_length: 20000,
        visual_grid: 12,
      },
    },
  ],
  defaults: {
    target_language: 'English',
    temperature: 0.2,
    prompt_template:
      'Translate the following text into {{target_language}}. Answer with the translation only.\n\n{{input}}',
  },
};
