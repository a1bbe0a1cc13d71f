import { describe, expect, it } from 'vitest';
import type { FormSchema } from '../../../components/SchemaForm';
import { listInputs, listReady } from './getProviderModels';

/** Bedrock's install form (server/src/modules/models/catalogue.ts), as far as the list goes. */
const bedrock: FormSchema = {
  type: 'object',
  properties: {
    region: { type: 'string', default: 'us-east-1' },
    model: { type: 'string', 'x-list-models': true },
    access_key_id: { type: 'string' },
    secret_access_key: { type: 'string', 'x-secret': true },
    session_token: { type: 'string', 'x-secret': true },
    base_url: { type: 'string', format: 'uri' },
    cost_per_1k: { type: 'number' },
  },
  required: ['region', 'model', 'access_key_id', 'secret_access_key'],
};

describe('what the model list is asked with', () => {
  it('the text values typed (or defaulted) but the listed field, and only once each required one is there', () => {
    const typed = {
      model: 'us.amazon.nova-pro-v1:0',
      access_key_id: ' AKIAIOSFODNN7EXAMPLE ',
      cost_per_1k: 3,
    };
    const inputs = listInputs(bedrock, typed, 'model');
    expect(inputs).toEqual({ region: 'us-east-1', access_key_id: 'AKIAIOSFODNN7EXAMPLE' });
    expect(listReady(bedrock, inputs, 'model')).toBe(false);

    const complete = listInputs(bedrock, { ...typed, secret_access_key: 's3cr3t' }, 'model');
    expect(listReady(bedrock, complete, 'model')).toBe(true);
    // An endpoint URL half typed waits.
    expect(listReady(bedrock, { ...complete, base_url: 'https:/' }, 'model')).toBe(false);
    expect(
      listReady(
        bedrock,
        { ...complete, base_url: 'https://vpce-1.bedrock-runtime.eu-central-1.vpce.amazonaws.com' },
        'model',
      ),
    ).toBe(true);
  });
});
