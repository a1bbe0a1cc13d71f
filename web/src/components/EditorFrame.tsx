import { Skeleton } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import './editorMessages';

/**
 * The bordered box around a lazy-loaded CodeMirror editor (CodeEditor, JsonEditor): red border while
 * there is an error, a skeleton of the editor's height while its chunk loads.
 */
export function EditorFrame({
  testId,
  hasError,
  invalid,
  height,
  children,
}: {
  testId?: string;
  hasError: boolean;
  /** Sets `data-invalid` (the JSON editor's text does not parse). */
  invalid?: boolean;
  height: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div
      data-testid={testId}
      data-invalid={invalid || undefined}
      style={{
        border: `1px solid ${hasError ? 'var(--mantine-color-error)' : 'var(--mantine-color-default-border)'}`,
        borderRadius: 'var(--mantine-radius-sm)',
        overflow: 'hidden',
      }}
    >
      <Suspense fallback={<Skeleton height={height} aria-label={t('editors.loading')} />}>
        {children}
      </Suspense>
    </div>
  );
}
