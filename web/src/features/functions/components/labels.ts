import { FUNCTION_RUNTIME_LABELS, FunctionRunStatus, type FunctionRuntime } from '@llmor/contracts';
import { useTranslation } from 'react-i18next';

const STATUS_KEYS: Record<
  number,
  'ok' | 'runtimeError' | 'syntaxError' | 'timeLimit' | 'memoryLimit' | 'notSerialisable' | 'breakpoint'
> = {
  [FunctionRunStatus.Ok]: 'ok',
  [FunctionRunStatus.RuntimeError]: 'runtimeError',
  [FunctionRunStatus.SyntaxError]: 'syntaxError',
  [FunctionRunStatus.TimeLimit]: 'timeLimit',
  [FunctionRunStatus.MemoryLimit]: 'memoryLimit',
  [FunctionRunStatus.NotSerialisable]: 'notSerialisable',
  [FunctionRunStatus.Breakpoint]: 'breakpoint',
};

/** Translated labels of runtimes and run statuses. */
export function useFunctionLabels() {
  const { t } = useTranslation();
  return {
    /** 'Silicon (lua)' */
    runtime: (runtime: string) =>
      t(`functions.runtimes.${runtime}`, {
        defaultValue: FUNCTION_RUNTIME_LABELS[runtime as FunctionRuntime] ?? runtime,
      }),
    /** 'Silicon' (badges) */
    runtimeShort: (runtime: string) => t(`functions.runtimesShort.${runtime}`, { defaultValue: runtime }),
    status: (status: number) =>
      t(`functions.statuses.${STATUS_KEYS[status] ?? (status > 0 ? 'ok' : 'failure')}`),
    ms: (value: number) => t('functions.ms', { value }),
  };
}
