import { describe, expect, it } from 'vitest';
import { errorsUnder, serverFieldErrors } from '../../lib/form';
import {
  cycleRole,
  gridSpan,
  isTooLong,
  nextRole,
  parameterErrors,
  parametersErrorLines,
  sortOption,
  toggleFilterOption,
} from './lib';

describe('apps list helpers', () => {
  it('toggles filter options and drops a filter with no options left', () => {
    let f = toggleFilterOption({}, 'app_type', 'chatbot');
    expect(f).toEqual({ app_type: ['chatbot'] });
    f = toggleFilterOption(f, 'app_type', 'silicon');
    expect(f).toEqual({ app_type: ['chatbot', 'silicon'] });
    f = toggleFilterOption(f, 'app_type', 'chatbot');
    expect(f).toEqual({ app_type: ['silicon'] });
    f = toggleFilterOption(f, 'app_type', 'silicon');
    expect(f).toEqual({});
    expect('app_type' in f).toBe(false);
  });

  it('maps sort values to column and direction, default newest first', () => {
    expect(sortOption('name:desc')).toMatchObject({ order: 'name', direction: 'desc' });
    expect(sortOption('bogus')).toMatchObject({ order: 'created_at', direction: 'desc' });
  });
});

describe('configuration helpers', () => {
  it('maps visual_grid to the nearest wider bucket', () => {
    expect([undefined, 12, 11, 7, 6, 5, 4, 3, 2, 1].map((v) => gridSpan(v))).toEqual([
      12, 12, 12, 12, 6, 6, 4, 3, 3, 3,
    ]);
  });

  it('cycles roles and picks the role of a new message', () => {
    expect(cycleRole('user')).toBe('assistant');
    expect(cycleRole('assistant')).toBe('user');
    expect(nextRole([])).toBe('user');
    expect(nextRole([{ role: 'user', message: '' }])).toBe('assistant');
    expect(nextRole([{ role: 'assistant', message: '' }])).toBe('user');
  });

  it('checks max length', () => {
    expect(isTooLong('abc', 3)).toBe(false);
    expect(isTooLong('abcd', 3)).toBe(true);
    expect(isTooLong('abcd', undefined)).toBe(false);
  });

  it('reads nested server errors', () => {
    const errors = serverFieldErrors({
      name: 'Name is required',
      parameters: {
        temperature: { value: 'Must be at most 2' },
        greeting: { xx_XX: 'Unknown locale' },
        sample_conversation: { 1: 'Role must be user or assistant' },
      },
    });
    expect(parameterErrors(errors, 'temperature')).toEqual({ value: 'Must be at most 2' });
    expect(parameterErrors(errors, 'greeting')).toEqual({ xx_XX: 'Unknown locale' });
    expect(parameterErrors(errors, 'sample_conversation')).toEqual({ 1: 'Role must be user or assistant' });
    expect(parameterErrors(errors, 'other')).toEqual({});
    expect(parameterErrors(serverFieldErrors({ parameters: 'Must be an object' }), 'x')).toEqual({});
    expect(parametersErrorLines(errorsUnder(errors, 'parameters'))).toEqual([
      'temperature: Must be at most 2',
      'greeting.xx_XX: Unknown locale',
      'sample_conversation.1: Role must be user or assistant',
    ]);
    expect(
      parametersErrorLines(errorsUnder(serverFieldErrors({ parameters: 'Must be an object' }), 'parameters')),
    ).toEqual(['Must be an object']);
    expect(serverFieldErrors({ name: ['a', 'b'] })).toEqual({ name: ['a', 'b'] });
    expect(serverFieldErrors(undefined)).toEqual({});
  });
});
