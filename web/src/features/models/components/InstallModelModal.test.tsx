// @vitest-environment happy-dom
import type { AvailableModel } from '@llmor/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnsavedChangesProvider } from '../../../components/UnsavedChanges';
import { i18n } from '../../../i18n';
import { createQueryClient } from '../../../lib/api/dataLayer';
import { InstallModelModal } from './InstallModelModal';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const ollama: AvailableModel = {
  id: 'ollama-chat',
  name: 'Ollama',
  description: 'A model on your Ollama server.',
  image: 'icon:server',
  type: 'chat_completion',
  provider: 'ollama',
  cost_per_1k: 0,
  cost_per_1k_formatted: 'CHF 0.00',
  schema: {
    type: 'object',
    properties: {
      base_url: {
        type: 'string',
        title: 'Base URL',
        description: 'URL of the Ollama server’s native API.',
        format: 'uri',
        default: 'http://127.0.0.1:11434/api',
      },
      model: {
        type: 'string',
        title: 'Model name',
        description: 'A model the server has pulled.',
        minLength: 1,
        'x-list-models': true,
      },
    },
    required: ['base_url', 'model'],
    additionalProperties: false,
  },
};

const azure: AvailableModel = {
  id: 'azure-openai-chat',
  name: 'Azure OpenAI',
  description: 'A chat deployment of your Azure OpenAI resource.',
  image: 'icon:brand-azure',
  type: 'chat_completion',
  provider: 'azure',
  cost_per_1k: 0,
  cost_per_1k_formatted: 'CHF 0.00',
  schema: {
    type: 'object',
    properties: {
      resource_name: { type: 'string', title: 'Resource name', description: 'Your Azure OpenAI resource.' },
      deployment: {
        type: 'string',
        title: 'Deployment name',
        description: 'The name you gave the chat model deployment.',
        minLength: 1,
        'x-list-models': true,
        'x-deployment': true,
      },
      api_version: {
        type: 'string',
        title: 'API version',
        description: 'v1 or a dated version.',
        default: 'v1',
      },
      api_key: {
        type: 'string',
        title: 'API key',
        description: 'Your Azure OpenAI API key. Treated like a password.',
        minLength: 1,
        'x-secret': true,
      },
    },
    required: ['deployment', 'api_key'],
    additionalProperties: false,
  },
};

type Answer = { status: number; body: unknown };

/** Answers the catalogue, and each model-list request from `lists` in order; records the list requests' bodies. */
function stubApi(lists: Answer[]) {
  const asked: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const json = (a: Answer) =>
      new Response(JSON.stringify(a.body), {
        status: a.status,
        headers: { 'content-type': 'application/json' },
      });
    if (url.includes('/avamodels/available')) {
      return json({ status: 200, body: { data: [ollama, azure], total_count: 2, filter_count: 2 } });
    }
    if (url.includes('/provider-models') && init?.method === 'POST') {
      asked.push(JSON.parse(String(init.body)));
      const next = lists.shift();
      if (next) return json(next);
    }
    return json({ status: 500, body: { name: 'InternalServerError', message: `unexpected ${url}` } });
  });
  return asked;
}

async function openForm(modelId: string, field: string) {
  const router = createMemoryRouter([
    {
      path: '*',
      element: (
        <UnsavedChangesProvider>
          <InstallModelModal vendorId={1} opened onClose={() => {}} />
        </UnsavedChangesProvider>
      ),
    },
  ]);
  render(
    <I18nextProvider i18n={i18n}>
      {/* No transitions or portals: the dropdown's options are there at once. */}
      <MantineProvider env="test">
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  fireEvent.click(await screen.findByTestId(`available-model-${modelId}`));
  fireEvent.click(screen.getByTestId('model-install-continue'));
  // The form's chunk (rjsf, ajv) loads on first use.
  const found = await screen.findByTestId(`schema-field-${field}`, {}, { timeout: 15_000 });
  return found.querySelector('input') as HTMLInputElement;
}
const openOllamaForm = () => openForm('ollama-chat', 'model');

// The first test loads the form's chunk (rjsf, ajv, the Mantine theme).
describe('the install form’s model list', { timeout: 20_000 }, () => {
  it('offers the names the server lists on the model field, and still takes any other name', async () => {
    const asked = stubApi([{ status: 200, body: { data: [{ id: 'llama3.1:8b' }, { id: 'qwen3:8b' }] } }]);
    const input = await openOllamaForm();
    expect(await screen.findByText(/Models on the server: 2\. Another name can be typed too\./)).toBeTruthy();
    // Asked with the base URL the form starts with (the schema's default).
    expect(asked).toEqual([{ parameters: { base_url: 'http://127.0.0.1:11434/api' } }]);

    fireEvent.focus(input);
    fireEvent.click(input);
    expect(await screen.findByRole('option', { name: 'qwen3:8b' })).toBeTruthy();
    fireEvent.click(screen.getByRole('option', { name: 'qwen3:8b' }));
    await waitFor(() => expect(input.value).toBe('qwen3:8b'));

    fireEvent.change(input, { target: { value: 'mistral:7b' } });
    await waitFor(() => expect(input.value).toBe('mistral:7b'));
  });

  it('says why the list could not be had, in the server’s words, and leaves the field free', async () => {
    const refusal =
      'http://127.0.0.1:11434 is on a private or local network; the operator can allow it with OUTBOUND_ALLOW.';
    stubApi([{ status: 400, body: { name: 'BadRequest', message: refusal } }]);
    const input = await openOllamaForm();
    expect(
      await screen.findByText(`The server’s models could not be listed: ${refusal}`, { exact: false }),
    ).toBeTruthy();
    fireEvent.change(input, { target: { value: 'llama3.1:8b' } });
    await waitFor(() => expect(input.value).toBe('llama3.1:8b'));
  });

  it('Azure: asks once the key is typed, with the resource, and labels the list as models, not deployments', async () => {
    const asked = stubApi([
      { status: 200, body: { data: [{ id: 'gpt-4.1' }, { id: 'gpt-4o-2024-11-20' }] } },
    ]);
    const deployment = await openForm('azure-openai-chat', 'deployment');
    const field = (name: string) =>
      screen.getByTestId(`schema-field-${name}`).querySelector('input') as HTMLInputElement;
    fireEvent.change(field('resource_name'), { target: { value: 'contoso-eu' } });
    // Asked only once the key the list needs is typed: one request, with the resource.
    fireEvent.change(field('api_key'), { target: { value: 'azure-key-0123' } });
    expect(
      await screen.findByText(
        /Models your resource can serve: 2\. A deployment named otherwise: type its name\./,
        {},
        // After the typing pause, on a shared machine.
        { timeout: 5_000 },
      ),
    ).toBeTruthy();
    expect(asked).toEqual([
      { parameters: { resource_name: 'contoso-eu', api_version: 'v1', api_key: 'azure-key-0123' } },
    ]);
    fireEvent.change(deployment, { target: { value: 'my-gpt4-prod' } });
    await waitFor(() => expect(deployment.value).toBe('my-gpt4-prod'));
  });
});
