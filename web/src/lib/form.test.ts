import { functionCreateBody } from '@llmor/contracts';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { errorsUnder, serverFieldErrors, zodFormValidate } from './form';

describe('form errors', () => {
  it('flattens the server’s field errors (message, list, nested map) to dotted paths', () => {
    const errors = serverFieldErrors({
      name: 'Required',
      function_key: ['Too long', 'Use letters, digits and underscores only.'],
      parameters: { temperature: { value: 'Must be at most 2' }, greeting: { xx_XX: 'Unknown locale' } },
      function_config: { 3: 'Must be an object' },
    });
    expect(errors).toEqual({
      name: ['Required'],
      function_key: ['Too long', 'Use letters, digits and underscores only.'],
      'parameters.temperature.value': ['Must be at most 2'],
      'parameters.greeting.xx_XX': ['Unknown locale'],
      'function_config.3': ['Must be an object'],
    });
    expect(errorsUnder(errors, 'parameters')).toEqual({
      'temperature.value': ['Must be at most 2'],
      'greeting.xx_XX': ['Unknown locale'],
    });
    expect(errorsUnder(serverFieldErrors({ parameters: 'Must be an object' }), 'parameters')).toEqual({
      '': ['Must be an object'],
    });
  });

  it('validates a form with the contracts’ schema, localising "required"', () => {
    const t = ((key: string) => `t:${key}`) as unknown as TFunction;
    const validate = zodFormValidate(functionCreateBody, t);
    expect(validate({ name: '', function_key: 'weather lookup' })).toEqual({
      name: 't:form.required',
      function_key: 'Use letters, digits and underscores only.',
    });
    expect(validate({ name: 'Weather', function_key: 'weather' })).toEqual({});
  });
});
