import { PARAMETER_TYPES, type ParameterDefinition } from '@llmor/contracts';
import { describe, expect, it } from 'vitest';
import { appCatalogue, checkManifest } from './catalogue';
import { chatbot } from './catalogue/chatbot';
import { validateParameters } from './parameters';

const isIcon = (n: string) => ['robot', 'apps'].includes(n);

describe('app catalogue', () => {
  it('ships apps of every type, using every parameter type', () => {
    const manifests = [...appCatalogue().values()];
    expect(manifests.map((m) => `${m.app_key}:${m.type}`)).toEqual([
      'chatbot:chatbot',
      'generic:generic',
      'silicon:silicon',
      'summarizer:oneshot',
      'translator:oneshot',
    ]);
    const used = new Set(manifests.flatMap((m) => m.parameters.map((p) => p.type)));
    expect([...used].sort()).toEqual([...PARAMETER_TYPES].sort());
  });

  it('uses the parameter keys the conversation engine reads', () => {
    const keys = (k: string) =>
      appCatalogue()
        .get(k)!
        .parameters.map((p) => `${p.name}:${p.type}`);
    expect(keys('chatbot')).toEqual(
      expect.arrayContaining([
        'system_prompt:text',
        'temperature:number',
        'sample_conversation:conversation',
        'greeting:text.localized',
        'use_datastores:switch',
      ]),
    );
    expect(keys('summarizer')).toEqual(['prompt_template:text', 'temperature:number']);
    expect(keys('translator')).toEqual([
      'target_language:select',
      'temperature:number',
      'prompt_template:text',
    ]);
    expect(keys('silicon')).toContain('silicon:silicon');
    expect(keys('generic')).toEqual(['system_prompt:text']);
    for (const k of ['summarizer', 'translator']) {
      expect(appCatalogue().get(k)!.defaults.prompt_template).toContain('{{input}}');
    }
    const chat = appCatalogue().get('chatbot')!;
    expect(chat.defaults.temperature).toBe(0.7);
    expect(chat.defaults.use_datastores).toBe(false);
    const temperature = chat.parameters.find((p) => p.name === 'temperature')!;
    expect(temperature.params).toMatchObject({ min: 0, max: 2 });
    const greeting = chat.parameters.find((p) => p.name === 'greeting')!;
    expect(greeting.params).toMatchObject({
      default_locale: 'en_US',
      available_locales: ['en_US', 'de_DE', 'de_CH', 'gsw_CH', 'fr_FR', 'it_IT'],
    });
  });

  it('refuses a manifest whose defaults miss or break a definition', () => {
    expect(() =>
      checkManifest({ ...chatbot, defaults: { ...chatbot.defaults, temperature: 7 } }, () => true),
    ).toThrow(/chatbot: bad defaults .*Must be at most 2/);
    const { greeting: _, ...withoutGreeting } = chatbot.defaults;
    expect(() => checkManifest({ ...chatbot, defaults: withoutGreeting }, () => true)).toThrow(
      /no default for greeting/,
    );
    expect(() => checkManifest({ ...chatbot, icon: 'robot' }, () => true)).toThrow(/App manifest chatbot/);
    expect(() => checkManifest(chatbot, () => false)).toThrow(/Unknown icon|unknown icon/);
    expect(() =>
      checkManifest({ ...chatbot, parameters: [...chatbot.parameters, chatbot.parameters[1]!] }, () => true),
    ).toThrow(/duplicate parameter system_prompt/);
  });
});

describe('validateParameters', () => {
  const defs: ParameterDefinition[] = [
    { name: 'title', type: 'visual.header', params: { title: 'T' } },
    { name: 'prompt', type: 'text', params: { value_key: 'system_prompt', max_length: 3 } },
    { name: 'level', type: 'number', params: { min: 1 } },
    { name: 'pic', type: 'select.icon', params: {} },
  ];

  it('reads values at value_key and keys errors by parameter name', () => {
    expect(validateParameters(defs, { system_prompt: 'abc', level: 1, pic: 'robot' }, { isIcon })).toEqual({
      ok: true,
      value: { system_prompt: 'abc', level: 1, pic: 'robot' },
    });
    expect(validateParameters(defs, { system_prompt: 'abcd', level: 0, pic: 'nope' }, { isIcon })).toEqual({
      ok: false,
      errors: {
        prompt: { value: 'Max length is 3 characters.' },
        level: { value: 'Must be at least 1' },
        pic: { value: 'Unknown icon' },
      },
    });
    // The definition's name is not where the value lives, and a header carries no value.
    expect(validateParameters(defs, { prompt: 'a', title: 'x' }, { isIcon })).toEqual({
      ok: false,
      errors: { prompt: { value: 'Unknown parameter' }, title: { value: 'Unknown parameter' } },
    });
  });

  it('rejects non-finite numbers and prototype keys', () => {
    expect(validateParameters(defs, { level: Number.NaN }, { isIcon })).toEqual({
      ok: false,
      errors: { level: { value: 'Must be a number' } },
    });
    for (const [text, errors] of [
      ['{"__proto__": {"x": 1}}', '{"__proto__":{"value":"Unknown parameter"}}'],
      ['{"constructor": 1}', '{"constructor":{"value":"Unknown parameter"}}'],
      ['{"level": 2, "__proto__": null}', '{"__proto__":{"value":"Unknown parameter"}}'],
    ]) {
      const result = validateParameters(defs, JSON.parse(text!), { isIcon });
      expect(JSON.stringify(result), text).toBe(`{"ok":false,"errors":${errors}}`);
    }
    const localized: ParameterDefinition[] = [
      {
        name: 'greeting',
        type: 'text.localized',
        params: { default_locale: 'en_US', available_locales: ['en_US'] },
      },
    ];
    const result = validateParameters(localized, JSON.parse('{"greeting": {"__proto__": "x"}}'), { isIcon });
    expect(JSON.stringify(result)).toBe('{"ok":false,"errors":{"greeting":{"__proto__":"Unknown locale"}}}');
  });
});
