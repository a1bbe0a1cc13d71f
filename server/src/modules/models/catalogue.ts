/**
 * The catalogue of models a vendor can install: data, not code. Each entry names its provider
 * (which adapter in `providers/` runs it), its upstream model, a default cost and the JSON schema of
 * the parameters the install form asks for. Secret parameters carry `"x-secret": true`: they are
 * encrypted at rest and never returned. See README.md for how to add an entry or a provider.
 */
import type { ModelProvider, ModelType, ParameterProperty, ParameterSchema } from '@llmor/contracts';

export interface CatalogueEntry {
  /** Stable key; stored as `vendor_models.model_key`. Never rename one that has shipped. */
  id: string;
  name: string;
  description: string;
  image: string;
  type: ModelType;
  provider: ModelProvider;
  /** The provider's model name; for OpenAI-compatible servers it comes from the `model` parameter. */
  providerModel?: string;
  /** Vector size of an embedding model; for OpenAI-compatible servers the `dimensions` parameter. */
  dimensions?: number;
  /** Default cost per 1K tokens in integer minor units (a blended estimate, rounded up). */
  costPer1kMinor: number;
  schema: ParameterSchema;
  /** At least one of these parameters must be given (checked at install, reported on the first). */
  oneOfRequired?: string[];
}

const apiKey = (provider: string): ParameterProperty => ({
  type: 'string',
  title: 'API key',
  description: `Your ${provider} API key. Treated like a password: encrypted at rest and never shown again.`,
  minLength: 1,
  'x-secret': true,
});

const optionalApiKey: ParameterProperty = {
  type: 'string',
  title: 'API key',
  description:
    'API key, if the server needs one. Treated like a password: encrypted at rest and never shown again.',
  'x-secret': true,
};

const baseUrl = (defaultUrl: string, what: string): ParameterProperty => ({
  type: 'string',
  title: 'Base URL',
  description: `URL of the ${what} API. Change it only for a proxy or gateway.`,
  format: 'uri',
  pattern: '^https?://',
  default: defaultUrl,
});

const compatibleBaseUrl: ParameterProperty = {
  type: 'string',
  title: 'Base URL',
  description:
    'URL of the server’s OpenAI-compatible API, e.g. http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM), http://localhost:1234/v1 (LM Studio), http://localhost:8080/v1 (llama.cpp server). A server on this machine or a private network must first be allowed by the operator (OUTBOUND_ALLOW).',
  format: 'uri',
  pattern: '^https?://',
};

const costPer1k: ParameterProperty = {
  type: 'integer',
  title: 'Cost per 1K tokens',
  description: 'What 1,000 tokens cost, in minor units of your currency (cents). 0 for a free local model.',
  minimum: 0,
  maximum: 1_000_000,
  default: 0,
};

const schema = (properties: Record<string, ParameterProperty>, required: string[] = []): ParameterSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const openAiChat = (model: string, name: string, description: string, cost: number): CatalogueEntry => ({
  id: `openai-${model}`,
  name,
  description,
  image: 'icon:brand-openai',
  type: 'chat_completion',
  provider: 'openai',
  providerModel: model,
  costPer1kMinor: cost,
  schema: schema({ api_key: apiKey('OpenAI'), base_url: baseUrl('https://api.openai.com/v1', 'OpenAI') }, [
    'api_key',
  ]),
});

const openAiEmbedding = (model: string, name: string, dimensions: number, cost: number): CatalogueEntry => ({
  id: `openai-${model}`,
  name,
  description: `OpenAI embedding model (${dimensions} dimensions) for datastore search.`,
  image: 'icon:brand-openai',
  type: 'embedding',
  provider: 'openai',
  providerModel: model,
  dimensions,
  costPer1kMinor: cost,
  schema: schema({ api_key: apiKey('OpenAI'), base_url: baseUrl('https://api.openai.com/v1', 'OpenAI') }, [
    'api_key',
  ]),
});

const anthropicChat = (model: string, name: string, description: string, cost: number): CatalogueEntry => ({
  id: `anthropic-${model}`,
  name,
  description,
  image: 'icon:letter-a',
  type: 'chat_completion',
  provider: 'anthropic',
  providerModel: model,
  costPer1kMinor: cost,
  schema: schema(
    { api_key: apiKey('Anthropic'), base_url: baseUrl('https://api.anthropic.com/v1', 'Anthropic') },
    ['api_key'],
  ),
});

/**
 * Providers reached with an API key and an optional base URL, each through its own AI SDK package
 * (providers/hosted.ts, docs/adr/0038-providers.md).
 */
interface HostedProvider {
  provider: ModelProvider;
  /** The provider's name in the form ("Your … API key", "URL of the … API"). */
  label: string;
  image: string;
  defaultBaseUrl: string;
}

const GEMINI: HostedProvider = {
  provider: 'google',
  label: 'Google Gemini',
  image: 'icon:brand-google',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
};
const MISTRAL: HostedProvider = {
  provider: 'mistral',
  label: 'Mistral',
  image: 'icon:wind',
  defaultBaseUrl: 'https://api.mistral.ai/v1',
};
const GROQ: HostedProvider = {
  provider: 'groq',
  label: 'Groq',
  image: 'icon:bolt',
  defaultBaseUrl: 'https://api.groq.com/openai/v1',
};
const DEEPSEEK: HostedProvider = {
  provider: 'deepseek',
  label: 'DeepSeek',
  image: 'icon:letter-d',
  defaultBaseUrl: 'https://api.deepseek.com',
};

interface HostedModel {
  /** The catalogue id (stable, see `CatalogueEntry.id`). */
  id: string;
  /** The provider's model name. */
  model: string;
  name: string;
  description: string;
  cost: number;
}

const hostedSchema = (p: HostedProvider): ParameterSchema =>
  schema({ api_key: apiKey(p.label), base_url: baseUrl(p.defaultBaseUrl, p.label) }, ['api_key']);

const hostedChat = (p: HostedProvider, m: HostedModel): CatalogueEntry => ({
  id: m.id,
  name: m.name,
  description: m.description,
  image: p.image,
  type: 'chat_completion',
  provider: p.provider,
  providerModel: m.model,
  costPer1kMinor: m.cost,
  schema: hostedSchema(p),
});

const hostedEmbedding = (p: HostedProvider, m: HostedModel & { dimensions: number }): CatalogueEntry => ({
  ...hostedChat(p, m),
  type: 'embedding',
  dimensions: m.dimensions,
});

// --- Azure OpenAI, Amazon Bedrock, Ollama (ADR 0039) ---

const azureParameters = (what: string): Record<string, ParameterProperty> => ({
  resource_name: {
    type: 'string',
    title: 'Resource name',
    description:
      'Your Azure OpenAI resource, the NAME in https://NAME.openai.azure.com. Leave empty when you give a base URL.',
    pattern: '^[a-zA-Z0-9][a-zA-Z0-9-]{0,62}$',
  },
  base_url: {
    type: 'string',
    title: 'Base URL',
    description:
      'Instead of a resource name: the URL ending in /openai, e.g. https://NAME.openai.azure.com/openai or a gateway in front of it.',
    format: 'uri',
    pattern: '^https?://',
  },
  deployment: {
    type: 'string',
    title: 'Deployment name',
    description: `The name you gave the ${what} deployment in the Azure AI Foundry portal.`,
    minLength: 1,
    pattern: '^[a-zA-Z0-9._-]+$',
    'x-list-models': true,
    'x-deployment': true,
  },
  api_version: {
    type: 'string',
    title: 'API version',
    description:
      'v1 (the current API, no dated version) or a dated version such as 2024-10-21 for the older deployment URLs.',
    pattern: '^(v1|\\d{4}-\\d{2}-\\d{2}(-preview)?)$',
    default: 'v1',
  },
  api_key: apiKey('Azure OpenAI'),
});

const bedrockParameters = (model: ParameterProperty | null): Record<string, ParameterProperty> => ({
  region: {
    type: 'string',
    title: 'AWS region',
    description: 'The region Bedrock runs your model in, e.g. us-east-1 or eu-central-1.',
    pattern: '^[a-z]{2}(-[a-z]+)+-\\d$',
    default: 'us-east-1',
  },
  ...(model ? { model } : {}),
  access_key_id: {
    type: 'string',
    title: 'Access key ID',
    description: 'The access key ID of an IAM user or role allowed to call bedrock:InvokeModel.',
    minLength: 16,
    pattern: '^[A-Z0-9]+$',
  },
  secret_access_key: {
    type: 'string',
    title: 'Secret access key',
    description: 'Its secret access key. Treated like a password: encrypted at rest and never shown again.',
    minLength: 1,
    'x-secret': true,
  },
  session_token: {
    type: 'string',
    title: 'Session token',
    description:
      'Only for temporary credentials (STS). Treated like a password: encrypted at rest and never shown again.',
    'x-secret': true,
  },
  base_url: {
    type: 'string',
    title: 'Endpoint URL',
    description:
      'Leave empty for https://bedrock-runtime.REGION.amazonaws.com; set it for a VPC endpoint or a proxy.',
    format: 'uri',
    pattern: '^https?://',
  },
});

const ollamaBaseUrl: ParameterProperty = {
  type: 'string',
  title: 'Base URL',
  description:
    'URL of the Ollama server’s native API (ending in /api). A server on this machine or a private network must first be allowed by the operator (OUTBOUND_ALLOW).',
  format: 'uri',
  pattern: '^https?://',
  default: 'http://127.0.0.1:11434/api',
};

const AZURE_AND_BEDROCK_AND_OLLAMA: CatalogueEntry[] = [
  {
    id: 'azure-openai-chat',
    name: 'Azure OpenAI',
    description:
      'A chat deployment (GPT-4.1, GPT-4o, GPT-5, …) of your Azure OpenAI resource, with tool calling.',
    image: 'icon:brand-azure',
    type: 'chat_completion',
    provider: 'azure',
    costPer1kMinor: 0,
    schema: schema({ ...azureParameters('chat model'), cost_per_1k: costPer1k }, ['deployment', 'api_key']),
    oneOfRequired: ['resource_name', 'base_url'],
  },
  {
    id: 'azure-openai-embedding',
    name: 'Azure OpenAI embeddings',
    description: 'An embedding deployment (text-embedding-3-small or -large) of your Azure OpenAI resource.',
    image: 'icon:brand-azure',
    type: 'embedding',
    provider: 'azure',
    costPer1kMinor: 0,
    schema: schema(
      {
        ...azureParameters('embedding model'),
        dimensions: {
          type: 'integer',
          title: 'Dimensions',
          description: 'Length of the vectors: 1536 for text-embedding-3-small, 3072 for -large.',
          minimum: 1,
          maximum: 16_384,
          default: 1536,
        },
        cost_per_1k: costPer1k,
      },
      ['deployment', 'api_key', 'dimensions'],
    ),
    oneOfRequired: ['resource_name', 'base_url'],
  },
  {
    id: 'amazon-bedrock-chat',
    name: 'Amazon Bedrock',
    description:
      'Any Bedrock chat model through the Converse API (Claude, Amazon Nova, Llama, Mistral, …), with tool calling.',
    image: 'icon:brand-aws',
    type: 'chat_completion',
    provider: 'amazon-bedrock',
    costPer1kMinor: 0,
    schema: schema(
      {
        ...bedrockParameters({
          type: 'string',
          title: 'Model ID',
          description:
            'A model ID or inference profile ID, e.g. global.anthropic.claude-sonnet-4-5-20250929-v1:0, us.amazon.nova-pro-v1:0 or us.meta.llama3-3-70b-instruct-v1:0.',
          minLength: 1,
          pattern: '^[a-zA-Z0-9._:/-]+$',
          default: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
          'x-list-models': true,
        }),
        cost_per_1k: costPer1k,
      },
      ['region', 'model', 'access_key_id', 'secret_access_key'],
    ),
  },
  {
    id: 'amazon-bedrock-titan-embed-text-v2',
    name: 'Amazon Titan Text Embeddings V2',
    description: 'Amazon Titan Text Embeddings V2 on Bedrock (1024 dimensions) for datastore search.',
    image: 'icon:brand-aws',
    type: 'embedding',
    provider: 'amazon-bedrock',
    providerModel: 'amazon.titan-embed-text-v2:0',
    dimensions: 1024,
    costPer1kMinor: 1,
    schema: schema(bedrockParameters(null), ['region', 'access_key_id', 'secret_access_key']),
  },
  {
    id: 'ollama-chat',
    name: 'Ollama',
    description:
      'A model on your Ollama server (Llama, Qwen, Gemma, Mistral, …) through its native API, with tool calling.',
    image: 'icon:server',
    type: 'chat_completion',
    provider: 'ollama',
    costPer1kMinor: 0,
    schema: schema(
      {
        base_url: ollamaBaseUrl,
        model: {
          type: 'string',
          title: 'Model name',
          description: 'A model the server has pulled, e.g. llama3.1:8b or qwen3:8b.',
          minLength: 1,
          'x-list-models': true,
        },
        api_key: optionalApiKey,
        cost_per_1k: costPer1k,
      },
      ['base_url', 'model'],
    ),
  },
  {
    id: 'ollama-embedding',
    name: 'Ollama embeddings',
    description: 'Embeddings from a model on your Ollama server (nomic-embed-text, mxbai-embed-large, …).',
    image: 'icon:server',
    type: 'embedding',
    provider: 'ollama',
    costPer1kMinor: 0,
    schema: schema(
      {
        base_url: ollamaBaseUrl,
        model: {
          type: 'string',
          title: 'Model name',
          description: 'An embedding model the server has pulled, e.g. nomic-embed-text.',
          minLength: 1,
          'x-list-models': true,
        },
        dimensions: {
          type: 'integer',
          title: 'Dimensions',
          description:
            'Length of the vectors the model returns, e.g. 768 for nomic-embed-text, 1024 for mxbai-embed-large.',
          minimum: 1,
          maximum: 16_384,
        },
        api_key: optionalApiKey,
        cost_per_1k: costPer1k,
      },
      ['base_url', 'model', 'dimensions'],
    ),
  },
];

/** The demo model's rules, shown in the install modal and in README.md. */
const OFFLINE_DEMO_RULES =
  'A scripted stand-in for a language model, NOT AI: it needs no network and always answers the same way. ' +
  'It echoes your last message in several streamed chunks. ' +
  'To make it call a tool, send "/call <tool_name> {json arguments}" (e.g. /call get_weather {"city": "Bern"}): ' +
  'if the app offers that tool it calls it, and after the tool result comes back it answers with ' +
  '"Tool <tool_name> returned: <result>". Usage counts whitespace-separated words as tokens.';

export const CATALOGUE: readonly CatalogueEntry[] = [
  openAiChat('gpt-4o-mini', 'GPT-4o mini', 'OpenAI’s fast, affordable chat model with tool calling.', 1),
  openAiChat('gpt-4o', 'GPT-4o', 'OpenAI’s flagship multimodal chat model with tool calling.', 2),
  openAiChat(
    'gpt-4.1-mini',
    'GPT-4.1 mini',
    'OpenAI GPT-4.1 mini: strong instruction following at low cost.',
    1,
  ),
  openAiChat('gpt-4.1', 'GPT-4.1', 'OpenAI GPT-4.1: long context, strong coding and tool use.', 2),
  openAiEmbedding('text-embedding-3-small', 'text-embedding-3-small', 1536, 1),
  openAiEmbedding('text-embedding-3-large', 'text-embedding-3-large', 3072, 1),
  anthropicChat(
    'claude-sonnet-4-5',
    'Claude Sonnet 4.5',
    'Anthropic’s balanced model for agents and coding.',
    2,
  ),
  anthropicChat('claude-haiku-4-5', 'Claude Haiku 4.5', 'Anthropic’s fastest model, with tool use.', 1),
  // Gemini, Mistral, Groq, DeepSeek (docs/adr/0038-providers.md).
  hostedChat(GEMINI, {
    id: 'google-gemini-3.8-flash',
    model: 'gemini-3.8-flash',
    name: 'Gemini 3.8 Flash',
    description:
      'Google’s most capable Flash model: agents, coding and long multi-step work, with tool calling.',
    cost: 1,
  }),
  hostedChat(GEMINI, {
    id: 'google-gemini-3.5-flash-lite',
    model: 'gemini-3.5-flash-lite',
    name: 'Gemini 3.5 Flash-Lite',
    description: 'Google’s fastest, most cost-effective Gemini model, with tool calling.',
    cost: 1,
  }),
  hostedChat(GEMINI, {
    id: 'google-gemini-3.1-pro-preview',
    model: 'gemini-3.1-pro-preview',
    name: 'Gemini 3.1 Pro (preview)',
    description: 'Google’s advanced reasoning model for complex problems and agentic coding (a preview).',
    cost: 2,
  }),
  hostedEmbedding(GEMINI, {
    id: 'google-gemini-embedding-001',
    model: 'gemini-embedding-001',
    name: 'Gemini Embedding',
    description: 'Google’s embedding model (3072 dimensions) for datastore search, over 100 languages.',
    dimensions: 3072,
    cost: 1,
  }),
  hostedChat(MISTRAL, {
    id: 'mistral-medium-3.5',
    model: 'mistral-medium-3.5',
    name: 'Mistral Medium 3.5',
    description: 'Mistral’s flagship: instructions, reasoning and agentic coding in one model, 256K context.',
    cost: 1,
  }),
  hostedChat(MISTRAL, {
    id: 'mistral-large-latest',
    model: 'mistral-large-latest',
    name: 'Mistral Large',
    description: 'Mistral’s large open-weight model for demanding multilingual work, with tool calling.',
    cost: 1,
  }),
  hostedChat(MISTRAL, {
    id: 'mistral-small-latest',
    model: 'mistral-small-latest',
    name: 'Mistral Small',
    description: 'Mistral’s fast, low-cost model, with tool calling.',
    cost: 1,
  }),
  hostedEmbedding(MISTRAL, {
    id: 'mistral-embed',
    model: 'mistral-embed',
    name: 'Mistral Embed',
    description: 'Mistral’s embedding model (1024 dimensions) for datastore search.',
    dimensions: 1024,
    cost: 1,
  }),
  hostedChat(GROQ, {
    id: 'groq-gpt-oss-120b',
    model: 'openai/gpt-oss-120b',
    name: 'GPT-OSS 120B on Groq',
    description: 'OpenAI’s open-weight 120B model served by Groq at very high speed, with tool calling.',
    cost: 1,
  }),
  hostedChat(GROQ, {
    id: 'groq-gpt-oss-20b',
    model: 'openai/gpt-oss-20b',
    name: 'GPT-OSS 20B on Groq',
    description: 'OpenAI’s compact open-weight model served by Groq: the fastest and cheapest here.',
    cost: 1,
  }),
  hostedChat(DEEPSEEK, {
    id: 'deepseek-flash',
    model: 'deepseek-flash',
    name: 'DeepSeek V4.1 Flash',
    description: 'DeepSeek’s fast, low-cost model with a 1M-token context and tool calling.',
    cost: 1,
  }),
  hostedChat(DEEPSEEK, {
    id: 'deepseek-v4-pro',
    model: 'deepseek-v4-pro',
    name: 'DeepSeek V4 Pro',
    description: 'DeepSeek’s larger model for harder reasoning and coding, 1M-token context, tool calling.',
    cost: 1,
  }),
  {
    id: 'openai-compatible-chat',
    name: 'OpenAI-compatible server',
    description:
      'Any server that speaks the OpenAI chat completions API: Ollama, vLLM, LM Studio, llama.cpp server, or a gateway.',
    image: 'icon:server',
    type: 'chat_completion',
    provider: 'openai-compatible',
    costPer1kMinor: 0,
    schema: schema(
      {
        base_url: compatibleBaseUrl,
        model: {
          type: 'string',
          title: 'Model name',
          description: 'The model name the server knows, e.g. llama3.1:8b or Qwen/Qwen2.5-7B-Instruct.',
          minLength: 1,
          'x-list-models': true,
        },
        api_key: optionalApiKey,
        cost_per_1k: costPer1k,
      },
      ['base_url', 'model'],
    ),
  },
  {
    id: 'openai-compatible-embedding',
    name: 'OpenAI-compatible embeddings',
    description:
      'Embeddings from any server that speaks the OpenAI embeddings API (Ollama, vLLM, LM Studio, …).',
    image: 'icon:server',
    type: 'embedding',
    provider: 'openai-compatible',
    costPer1kMinor: 0,
    schema: schema(
      {
        base_url: compatibleBaseUrl,
        model: {
          type: 'string',
          title: 'Model name',
          description: 'The embedding model name the server knows, e.g. nomic-embed-text.',
          minLength: 1,
          'x-list-models': true,
        },
        dimensions: {
          type: 'integer',
          title: 'Dimensions',
          description: 'Length of the vectors the model returns, e.g. 768 for nomic-embed-text.',
          minimum: 1,
          maximum: 16_384,
        },
        api_key: optionalApiKey,
        cost_per_1k: costPer1k,
      },
      ['base_url', 'model', 'dimensions'],
    ),
  },
  {
    id: 'builtin-offline-demo',
    name: 'Offline demo (not AI)',
    description: OFFLINE_DEMO_RULES,
    image: 'icon:robot-off',
    type: 'chat_completion',
    provider: 'builtin',
    providerModel: 'offline-demo',
    costPer1kMinor: 0,
    schema: schema({}),
  },
  {
    id: 'builtin-lexical-embedding',
    name: 'Lexical embeddings (offline)',
    description:
      'Built-in, offline, deterministic embeddings from word and word-pair hashing (384 dimensions). ' +
      'Matches shared words, not meaning; no configuration required.',
    image: 'icon:vector',
    type: 'embedding',
    provider: 'builtin',
    providerModel: 'lexical-384',
    dimensions: 384,
    costPer1kMinor: 0,
    schema: schema({}),
  },
  ...AZURE_AND_BEDROCK_AND_OLLAMA,
];

const byId = new Map(CATALOGUE.map((e) => [e.id, e]));

export function catalogueEntry(id: string): CatalogueEntry | null {
  return byId.get(id) ?? null;
}

/** Names of the parameters that are secrets (`"x-secret": true`). */
export function secretKeys(entry: Pick<CatalogueEntry, 'schema'>): string[] {
  return Object.entries(entry.schema.properties)
    .filter(([, p]) => p['x-secret'] === true)
    .map(([k]) => k);
}
