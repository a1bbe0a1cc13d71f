import type { AppManifestInput } from './manifest';

/** A conversational assistant: system prompt, temperature, greeting, sample conversation, datastores. */
export const chatbot: AppManifestInput = {
  app_key: 'chatbot',
  name: 'Chatbot',
  description: 'A conversational assistant with a system prompt, a greeting and sample conversation.',
  type: 'chatbot',
  icon: 'icon:message-chatbot',
  parameters: [
    {
      name: 'header_behaviour',
      type: 'visual.header',
      params: { title: 'Behaviour', subtitle: 'How the assistant answers.' },
    },
    {
      name: 'system_prompt',
      type: 'text',
      params: {
        label: 'System prompt',
        description: 'Instructions given to the model before every conversation.',
        placeholder: 'You are a helpful assistant…',
        multiline: true,
        max_length: 20000,
        visual_grid: 12,
      },
    },
    {
      name: 'temperature',
      type: 'number',
      params: {
        label: 'Temperature',
        hint: 'Lower is more focused, higher is more creative (0 – 2).',
        min: 0,
        max: 2,
        step: 0.1,
        visual_grid: 6,
      },
    },
    {
      name: 'use_datastores',
      type: 'switch',
      params: {
        label: 'Use datastores',
        description: "Search the app's datastores and give the model what matches.",
        visual_grid: 6,
      },
    },
    {
      name: 'datastores',
      type: 'text',
      params: {
        label: 'Datastores',
        hint: "Names, comma-separated; empty searches all of the app's datastores.",
        placeholder: 'faq, manuals',
        max_length: 1000,
        visual_grid: 6,
      },
    },
    {
      name: 'top_k',
      type: 'number',
      params: {
        label: 'Passages per message',
        hint: 'How many retrieved passages the model sees (1 – 20).',
        min: 1,
        max: 20,
        step: 1,
        visual_grid: 6,
      },
    },
    {
      name: 'icon',
      type: 'select.icon',
      params: { label: 'Icon', hint: 'Shown on the app card.', visual_grid: 6 },
    },
    {
      name: 'header_conversation',
      type: 'visual.header',
      params: { title: 'Conversation', subtitle: 'What users see first, and examples for the model.' },
    },
    {
      name: 'greeting',
      type: 'text.localized',
      params: {
        label: 'Greeting',
        description: 'The first assistant message of a conversation, per language.',
        multiline: true,
        max_length: 2000,
        default_locale: 'en_US',
        available_locales: ['en_US', 'de_DE', 'de_CH', 'gsw_CH', 'fr_FR', 'it_IT'],
        visual_grid: 12,
      },
    },
    {
      name: 'sample_conversation',
      type: 'conversation',
      params: {
        label: 'Sample conversation',
        description: 'Example messages given to the model before the real conversation.',
        visual_grid: 12,
      },
    },
  ],
  defaults: {
    system_prompt: 'You are a helpful, friendly assistant. Answer concisely and truthfully.',
    temperature: 0.7,
    use_datastores: false,
    datastores: '',
    top_k: 4,
    icon: 'message-chatbot',
    greeting: {
      en_US: 'Hello! How can I help you today?',
      de_DE: 'Hallo! Wie kann ich Ihnen heute helfen?',
      de_CH: 'Grüezi! Wie kann ich Ihnen heute helfen?',
      gsw_CH: 'Hoi! Wie chan ich dir hüt hälfe?',
      fr_FR: "Bonjour ! Comment puis-je vous aider aujourd'hui ?",
      it_IT: 'Ciao! Come posso aiutarti oggi?',
    },
    sample_conversation: [],
  },
};
