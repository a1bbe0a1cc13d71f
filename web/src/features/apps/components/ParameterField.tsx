import {
  type ConversationSample,
  isPlainObject,
  LOCALE_LABELS,
  type Locale,
  type LocalizedText,
  type ParameterDefinition,
  type ParameterDefinitionOf,
} from '@llmor/contracts';
import {
  Group,
  Image,
  Input,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../../../components/CodeEditor';
import { EntityPicker } from '../../../components/EntityPicker';
import { appKeys } from '../api/keys';
import { iconUrl, searchIcons } from '../api/searchIcons';
import { isTooLong } from '../lib';
import { ConversationEditor } from './ConversationEditor';

/** Lua editor height in the Configuration form (docs/reference/console.md). */
const SILICON_EDITOR_HEIGHT = 600;

export interface ParameterFieldProps {
  def: ParameterDefinition;
  value: unknown;
  onChange(value: unknown): void;
  /** Server errors of this parameter by sub key (`value`, a locale, a message index). */
  errors: Record<string, string>;
}

/** One control of the Configuration form per parameter type (docs/reference/console.md Configuration). */
export function ParameterField({ def, value, onChange, errors }: ParameterFieldProps) {
  const testId = `param-${def.name}`;
  switch (def.type) {
    case 'visual.header':
      return (
        <Stack gap={2} mt="sm" data-testid={testId}>
          <Title order={4}>{def.params.title}</Title>
          {def.params.subtitle && (
            <Text size="sm" c="dimmed">
              {def.params.subtitle}
            </Text>
          )}
        </Stack>
      );
    case 'text':
      return (
        <TextField
          def={def}
          value={asString(value)}
          onChange={onChange}
          error={errors.value}
          testId={testId}
        />
      );
    case 'text.localized':
      return (
        <LocalizedTextField
          def={def}
          value={asObject(value)}
          onChange={onChange}
          errors={errors}
          testId={testId}
        />
      );
    case 'number':
      return <NumberField def={def} value={value} onChange={onChange} error={errors.value} testId={testId} />;
    case 'switch':
      return (
        <Switch
          mt="xs"
          label={def.params.label}
          description={def.params.description}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
          error={errors.value}
          data-testid={testId}
        />
      );
    case 'select':
      return (
        <Select
          label={def.params.label}
          description={def.params.description}
          placeholder={def.params.placeholder}
          data={Object.entries(def.params.options).map(([v, label]) => ({ value: v, label }))}
          value={typeof value === 'string' ? value : null}
          onChange={(v) => onChange(v)}
          clearable={def.params.placeholder !== undefined}
          allowDeselect={def.params.placeholder !== undefined}
          error={errors.value}
          data-testid={testId}
        />
      );
    case 'select.icon':
      return (
        <IconField
          def={def}
          value={typeof value === 'string' ? value : null}
          onChange={onChange}
          error={errors.value}
          testId={testId}
        />
      );
    case 'conversation':
      return (
        <ConversationEditor
          label={def.params.label}
          description={def.params.description}
          value={Array.isArray(value) ? (value as ConversationSample[]) : []}
          onChange={onChange}
          errors={errors}
          testId={testId}
        />
      );
    case 'silicon':
      return (
        <CodeEditor
          label={def.params.label}
          description={def.params.description}
          value={asString(value)}
          onChange={onChange}
          language="lua"
          height={SILICON_EDITOR_HEIGHT}
          dark
          error={errors.value}
          data-testid={testId}
        />
      );
  }
}

const asString = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const asObject = (v: unknown): LocalizedText => (isPlainObject(v) ? (v as LocalizedText) : {});

/** The client-side max-length message, else the server's message. */
function useLengthError(text: string, max: number | undefined, serverError: string | undefined) {
  const { t } = useTranslation();
  return isTooLong(text, max) ? t('apps.parameters.maxLength', { count: max }) : serverError;
}

function TextField({
  def,
  value,
  onChange,
  error,
  testId,
}: {
  def: ParameterDefinitionOf<'text'>;
  value: string;
  onChange(v: string): void;
  error: string | undefined;
  testId: string;
}) {
  const p = def.params;
  const shown = useLengthError(value, p.max_length, error);
  const common = {
    label: p.label,
    description: p.description,
    placeholder: p.placeholder,
    value,
    error: shown,
    'data-testid': testId,
  };
  return p.multiline ? (
    <Textarea
      {...common}
      autosize
      minRows={3}
      maxRows={16}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  ) : (
    <TextInput {...common} onChange={(e) => onChange(e.currentTarget.value)} />
  );
}

function LocalizedTextField({
  def,
  value,
  onChange,
  errors,
  testId,
}: {
  def: ParameterDefinitionOf<'text.localized'>;
  value: LocalizedText;
  onChange(v: LocalizedText): void;
  errors: Record<string, string>;
  testId: string;
}) {
  const { t } = useTranslation();
  const p = def.params;
  const [locale, setLocale] = useState<Locale>(p.default_locale);
  const text = value[locale] ?? '';
  const ownError = useLengthError(text, p.max_length, errors[locale]);
  // Errors of the other locales (and of the value as a whole) stay visible while another tab is open.
  const otherErrors = Object.entries(errors)
    .filter(([sub]) => sub !== locale)
    .map(([sub, message]) =>
      sub === 'value' ? message : `${LOCALE_LABELS[sub as Locale] ?? sub}: ${message}`,
    );
  const error = [ownError, ...otherErrors].filter(Boolean).join(' · ') || undefined;
  const setText = (next: string) => onChange({ ...value, [locale]: next });
  const common = {
    'aria-label': `${p.label ?? def.name} (${LOCALE_LABELS[locale]})`,
    placeholder: p.placeholder,
    value: text,
    error: Boolean(error),
    'data-testid': `${testId}-${locale}`,
  };
  return (
    <Input.Wrapper label={p.label} description={p.description} error={error} data-testid={testId}>
      <Stack gap={6} mt={4}>
        <SegmentedControl
          size="xs"
          aria-label={t('apps.parameters.language')}
          value={locale}
          onChange={(v) => setLocale(v as Locale)}
          data={p.available_locales.map((l) => ({
            value: l,
            label: errors[l] ? `${LOCALE_LABELS[l]} •` : LOCALE_LABELS[l],
          }))}
          data-testid={`${testId}-locales`}
          style={{ alignSelf: 'flex-start', flexWrap: 'wrap' }}
        />
        {p.multiline ? (
          <Textarea
            {...common}
            autosize
            minRows={2}
            maxRows={12}
            onChange={(e) => setText(e.currentTarget.value)}
          />
        ) : (
          <TextInput {...common} onChange={(e) => setText(e.currentTarget.value)} />
        )}
      </Stack>
    </Input.Wrapper>
  );
}

function NumberField({
  def,
  value,
  onChange,
  error,
  testId,
}: {
  def: ParameterDefinitionOf<'number'>;
  value: unknown;
  onChange(v: number | null): void;
  error: string | undefined;
  testId: string;
}) {
  const p = def.params;
  // The text being typed ("0." is not a number yet); the value follows whenever it is one.
  const [raw, setRaw] = useState<number | string>(typeof value === 'number' ? value : '');
  return (
    <NumberInput
      label={p.label}
      description={p.description}
      placeholder={p.placeholder}
      min={p.min}
      max={p.max}
      step={p.step}
      decimalScale={p.step !== undefined && !Number.isInteger(p.step) ? 6 : undefined}
      clampBehavior="blur"
      value={raw}
      onChange={(v) => {
        setRaw(v);
        if (typeof v === 'number') onChange(v);
        else if (v === '') onChange(null);
      }}
      error={error}
      data-testid={testId}
    />
  );
}

function IconField({
  def,
  value,
  onChange,
  error,
  testId,
}: {
  def: ParameterDefinitionOf<'select.icon'>;
  value: string | null;
  onChange(v: string | null): void;
  error: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  const icon = (name: string, size: number) => (
    <Image src={iconUrl(name)} alt="" w={size} h={size} fit="contain" />
  );
  return (
    <EntityPicker<string>
      label={def.params.label}
      description={def.params.description}
      placeholder={def.params.placeholder ?? t('apps.parameters.iconPlaceholder')}
      value={value}
      onChange={onChange}
      search={searchIcons}
      queryKey={appKeys.icons}
      getId={(n) => n}
      getLabel={(n) => n}
      renderSelected={(n) => icon(n, 18)}
      renderOption={(n) => (
        <Group gap="sm" wrap="nowrap">
          {icon(n, 20)}
          <Text size="sm">{n}</Text>
        </Group>
      )}
      clearable
      error={error}
      data-testid={testId}
    />
  );
}
