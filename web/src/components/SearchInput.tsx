import { TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** A list's search box: the search icon, a placeholder and an accessible label. */
export function SearchInput({
  value,
  onSearch,
  placeholder,
  label,
  testId,
  ...rest
}: Omit<TextInputProps, 'onChange' | 'aria-label'> & {
  value: string;
  onSearch(text: string): void;
  placeholder: string;
  label: string;
  testId: string;
}) {
  return (
    <TextInput
      {...rest}
      placeholder={placeholder}
      aria-label={label}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(e) => onSearch(e.currentTarget.value)}
      data-testid={testId}
    />
  );
}
