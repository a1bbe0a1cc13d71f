/**
 * Fakes of outside services for tests: real wire protocols on 127.0.0.1, scripted per test, failing
 * (HTTP 500 + a recorded failure) on anything unexpected. See each file's header for its API.
 */
export * from './anthropic';
export * from './azure';
export * from './bedrock';
// Gemini, Mistral, Groq, DeepSeek (docs/adr/0038-providers.md).
export * from './chat-completions';
export * from './deepseek';
export * from './gemini';
export * from './groq';
export * from './http';
export * from './mistral';
export * from './ollama';
export * from './openai';
