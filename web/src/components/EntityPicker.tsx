import { CloseButton, Combobox, Group, InputBase, Loader, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './editorMessages';
import { canOfferCreate, PICKER_DEBOUNCE_MS } from './editorRules';

const CREATE = '\u0000create';

export interface EntityPickerProps<T> {
  /** The chosen item (null: none). Its label is shown while the picker is not being typed in. */
  value: T | null;
  onChange(item: T | null): void;
  /** Loads the options for the typed text (called 250 ms after typing stops; '' = no filter). */
  search(text: string): Promise<T[]>;
  /** Cache key of this data source (the typed text is appended). */
  queryKey: readonly unknown[];
  getId(item: T): string | number;
  getLabel(item: T): string;
  /** Content of an option (default: the label). */
  renderOption?(item: T): ReactNode;
  /** Shown left of the input for the chosen item (e.g. its icon). */
  renderSelected?(item: T): ReactNode;
  /** Offers 'create "text"' for typed text longer than 2 characters; resolves to the new item. */
  onCreate?(text: string): Promise<T> | T;
  label?: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  /** Shows a clear button while something is chosen. */
  clearable?: boolean;
  /** On the input; options get `<id>-option-<item id>`, the create option `<id>-create`, clear `<id>-clear`. */
  'data-testid'?: string;
}

/**
 * Select with search-as-you-type over a server call (debounced 250 ms) and an optional create option
 * (docs/reference/rules.md). Used for the completion model and the icon picker.
 */
export function EntityPicker<T>({
  value,
  onChange,
  search,
  queryKey,
  getId,
  getLabel,
  renderOption,
  renderSelected,
  onCreate,
  label,
  description,
  placeholder,
  error,
  required,
  disabled,
  clearable,
  'data-testid': testId,
}: EntityPickerProps<T>) {
  const { t } = useTranslation();
  const selectedLabel = value === null ? '' : getLabel(value);
  const [input, setInput] = useState(selectedLabel);
  const [term, setTerm] = useState('');
  const [debounced] = useDebouncedValue(term, PICKER_DEBOUNCE_MS);
  const [creating, setCreating] = useState(false);
  const combobox = useCombobox({
    onDropdownClose: () => combobox.resetSelectedOption(),
  });
  const opened = combobox.dropdownOpened;

  // Show the chosen item's label whenever the user is not typing.
  useEffect(() => {
    if (!opened) setInput(selectedLabel);
  }, [selectedLabel, opened]);

  const results = useQuery({
    queryKey: [...queryKey, 'pick', debounced] as const,
    queryFn: () => search(debounced),
    enabled: opened,
    staleTime: 10_000,
  });
  const items = results.data ?? [];
  const offerCreate = canOfferCreate(term, onCreate !== undefined);

  const reset = () => {
    setTerm('');
    setInput(selectedLabel);
  };

  const submit = async (optionValue: string) => {
    if (optionValue === CREATE) {
      if (!onCreate) throw new Error('EntityPicker: no create handler');
      setCreating(true);
      try {
        const created = await onCreate(term.trim());
        onChange(created);
        setInput(getLabel(created));
      } finally {
        setCreating(false);
      }
    } else {
      const item = items.find((i) => String(getId(i)) === optionValue);
      if (item) {
        onChange(item);
        setInput(getLabel(item));
      }
    }
    setTerm('');
    combobox.closeDropdown();
  };

  const busy = creating || (opened && (results.isFetching || term !== debounced));
  const rightSection = busy ? (
    <Loader size={14} />
  ) : clearable && value !== null && !disabled ? (
    <CloseButton
      size="sm"
      aria-label={t('editors.clear')}
      data-testid={testId ? `${testId}-clear` : undefined}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => {
        onChange(null);
        setInput('');
        setTerm('');
      }}
    />
  ) : (
    <Combobox.Chevron />
  );

  return (
    <Combobox store={combobox} onOptionSubmit={(v) => void submit(v)} withinPortal>
      <Combobox.Target>
        <InputBase
          label={label}
          description={description}
          placeholder={placeholder}
          error={error}
          required={required}
          disabled={disabled}
          value={input}
          leftSection={value !== null && renderSelected && !term ? renderSelected(value) : undefined}
          rightSection={rightSection}
          rightSectionPointerEvents={clearable && value !== null && !busy ? 'all' : 'none'}
          data-testid={testId}
          autoComplete="off"
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => {
            combobox.closeDropdown();
            reset();
          }}
          onChange={(e) => {
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
            setInput(e.currentTarget.value);
            setTerm(e.currentTarget.value);
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options mah={320} style={{ overflowY: 'auto' }}>
          {items.map((item) => {
            const id = String(getId(item));
            return (
              <Combobox.Option
                key={id}
                value={id}
                active={value !== null && String(getId(value)) === id}
                data-testid={testId ? `${testId}-option-${id}` : undefined}
              >
                {renderOption ? renderOption(item) : getLabel(item)}
              </Combobox.Option>
            );
          })}
          {offerCreate && (
            <Combobox.Option value={CREATE} data-testid={testId ? `${testId}-create` : undefined}>
              <Group gap={6}>
                <Text size="sm" fw={500}>
                  {t('editors.create', { text: term.trim() })}
                </Text>
              </Group>
            </Combobox.Option>
          )}
          {items.length === 0 && !offerCreate && !results.isFetching && (
            <Combobox.Empty>{t('editors.nothingFound')}</Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
