import { Autocomplete, Box, Loader, NumberInput, PasswordInput } from '@mantine/core';
import { Templates } from '@rjsf/mantine';
import {
  ariaDescribedByIds,
  type FieldTemplateProps,
  labelValue,
  type RegistryWidgetsType,
  type TemplatesType,
  type WidgetProps,
} from '@rjsf/utils';
import { useEffect, useState } from 'react';
import { type FieldSuggestions, primaryType, toNumberOrNull } from './schema';

const errorText = (rawErrors?: string[]) =>
  rawErrors && rawErrors.length > 0 ? rawErrors.join('\n') : undefined;

/** The props every widget's Mantine input takes from RJSF: id, name, label, description, state, error. */
function inputProps(props: WidgetProps) {
  const { id, htmlName, required, disabled, readonly, autofocus, label, hideLabel, rawErrors } = props;
  const { schema, options, placeholder } = props;
  return {
    id,
    name: htmlName || id,
    label: labelValue(label || undefined, hideLabel, false),
    description: hideLabel ? undefined : options.description || schema.description,
    placeholder,
    required,
    disabled: disabled || readonly,
    autoFocus: autofocus,
    error: errorText(rawErrors),
    'aria-describedby': ariaDescribedByIds(id),
  };
}

/**
 * Numbers (docs/reference/rules.md): reports a finite number, or null when the input is empty or invalid; integers
 * take whole numbers only (step 1). Keeps what was typed (e.g. "-") while it is not a number yet.
 */
function NullableNumberWidget(props: WidgetProps) {
  const { id, value, schema, options, onChange, onBlur, onFocus } = props;
  const integer = primaryType(schema as { type?: string }) === 'integer';
  const [text, setText] = useState<string | number>(typeof value === 'number' ? value : '');

  // Follow the value from outside (a reset, or a re-rendered schema's default) unless it is what was typed.
  useEffect(() => {
    setText((current) => {
      const parsed = toNumberOrNull(current, integer);
      if (typeof value === 'number') return parsed === value ? current : value;
      return parsed === null ? current : '';
    });
  }, [value, integer]);

  return (
    <NumberInput
      {...inputProps(props)}
      value={text}
      step={integer ? 1 : typeof options.step === 'number' ? options.step : undefined}
      allowDecimal={!integer}
      min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
      max={typeof schema.maximum === 'number' ? schema.maximum : undefined}
      clampBehavior="none"
      onChange={(next) => {
        setText(next);
        onChange(toNumberOrNull(next, integer));
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

/** Masked input (descriptions that mention a password, and `x-secret`), with its description shown. */
function MaskedPasswordWidget(props: WidgetProps) {
  const { id, value, options, onChange, onBlur, onFocus } = props;
  return (
    <PasswordInput
      {...inputProps(props)}
      autoComplete="new-password"
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.currentTarget.value === '' ? options.emptyValue : e.currentTarget.value)}
      onBlur={(e) => onBlur(id, e.currentTarget.value)}
      onFocus={(e) => onFocus(id, e.currentTarget.value)}
    />
  );
}

/** A text field that offers suggestions (`ui:options.suggestions`) and still takes any text. */
function SuggestionsWidget(props: WidgetProps) {
  const { id, value, options, onChange, onBlur, onFocus } = props;
  const suggestions = options.suggestions as FieldSuggestions | undefined;
  const base = inputProps(props);
  const note = suggestions?.note;
  return (
    <Autocomplete
      {...base}
      description={note ? [base.description, note].filter(Boolean).join(' ') : base.description}
      data={suggestions?.options ?? []}
      limit={100}
      maxDropdownHeight={240}
      rightSection={suggestions?.loading ? <Loader size="xs" data-testid={`${id}-listing`} /> : undefined}
      value={typeof value === 'string' ? value : ''}
      onChange={(next) => onChange(next === '' ? options.emptyValue : next)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

const BaseFieldTemplate = Templates.FieldTemplate!;

/** Mantine's field template, wrapped so each property can be found: `data-testid="schema-field-<name>"`. */
function FieldTemplate(props: FieldTemplateProps) {
  const path = props.fieldPathId.path;
  if (path.length === 0) return <BaseFieldTemplate {...props} />;
  return (
    <Box
      data-testid={`schema-field-${path.join('.')}`}
      data-invalid={props.rawErrors?.length ? 'true' : undefined}
    >
      <BaseFieldTemplate {...props} />
    </Box>
  );
}

export const widgets: RegistryWidgetsType = {
  nullableNumber: NullableNumberWidget,
  password: MaskedPasswordWidget,
  PasswordWidget: MaskedPasswordWidget,
  suggestions: SuggestionsWidget,
};

export const templates: Partial<TemplatesType> = { FieldTemplate };
