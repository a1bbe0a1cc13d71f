import type { FunctionBuildResponse, FunctionCodeError, FunctionDetail } from '@llmor/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  Grid,
  Group,
  Paper,
  Stack,
  Tabs,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconDeviceFloppy, IconPlayerPlay } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../../../components/CodeEditor';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { describeError } from '../../../lib/api/error';
import { formatBytes } from '../../../lib/format/bytes';
import { useBuildFunction } from '../api/buildFunction';
import { useSaveFunctionCode } from '../api/saveFunctionCode';
import { initialObjectValues, mergeDefaults, prettyJson } from '../lib';
import { ConsoleList } from './ConsoleList';
import { useFunctionLabels } from './labels';
import { ObjectValueEditor } from './ObjectValueEditor';
import { StatusIcon } from './StatusIcon';

type EditorTab = 'results' | 'arguments' | 'config' | 'console';
type Schema = Record<string, unknown> | null;

const logDefaultsError = (error: unknown) => console.error('The schema has no usable defaults', error);
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Editor tab (docs/reference/console.md): the Lua code at 70 % width; beside it Run, save, status, time and memory, and the
 * sub-tabs Results, Arguments, Config and Console. Ctrl/⌘+Enter runs, Ctrl/⌘+S saves.
 */
export function FunctionEditor({ vendorId, fn }: { vendorId: number; fn: FunctionDetail }) {
  const { t } = useTranslation();
  const labels = useFunctionLabels();
  const [code, setCode] = useState(() => fn.code || t('functions.editor.template'));
  const [argumentSchema, setArgumentSchema] = useState<Schema>(fn.argument_schema);
  const [configSchema, setConfigSchema] = useState<Schema>(fn.config_schema);
  const [args, setArgs] = useState(() => initialObjectValues(fn.argument_schema, logDefaultsError));
  const [config, setConfig] = useState(() => initialObjectValues(fn.config_schema, logDefaultsError));
  const [argsValid, setArgsValid] = useState(true);
  const [configValid, setConfigValid] = useState(true);
  const [tab, setTab] = useState<EditorTab>('results');
  const [result, setResult] = useState<FunctionBuildResponse | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<FunctionCodeError | null>(null);
  const build = useBuildFunction(vendorId, fn.id);
  const saveCode = useSaveFunctionCode(vendorId, fn.id);
  const dirty = code !== fn.code;
  // Leaving for another tab (Details, Runs) unmounts the editor, so it asks first, as leaving the page does;
  // the template a new function starts with is nothing to lose.
  useUnsavedChanges(code !== (fn.code || t('functions.editor.template')));

  /** New schemas from a build or a save: the forms follow, keeping the values already entered. */
  const schemas = useRef<{ args: unknown; config: unknown }>({
    args: fn.argument_schema,
    config: fn.config_schema,
  });
  const applySchemas = (nextArgs: unknown, nextConfig: unknown) => {
    if (nextArgs !== undefined && !sameJson(schemas.current.args, nextArgs)) {
      const schema = (nextArgs as Schema) ?? null;
      schemas.current.args = schema;
      setArgumentSchema(schema);
      setArgs((values) => mergeDefaults(values, initialObjectValues(schema, logDefaultsError)));
    }
    if (nextConfig !== undefined && !sameJson(schemas.current.config, nextConfig)) {
      const schema = (nextConfig as Schema) ?? null;
      schemas.current.config = schema;
      setConfigSchema(schema);
      setConfig((values) => mergeDefaults(values, initialObjectValues(schema, logDefaultsError)));
    }
  };

  const run = async () => {
    if (build.isPending) return;
    if (!argsValid) return setTab('arguments');
    if (!configValid) return setTab('config');
    setRunError(null);
    try {
      const response = await build.mutateAsync({ code, arguments: args, config });
      setResult(response);
      applySchemas(response.argument_schema, response.config_schema);
      setTab((current) => (current === 'console' ? current : 'results'));
    } catch (error) {
      // docs/reference/console.md: build errors are logged; the Results tab says the run did not start.
      console.error('Running the function failed', error);
      setRunError(describeError(error).message ?? t('errors.unknownMessage'));
      setResult(null);
      setTab('results');
    }
  };

  const save = async () => {
    if (saveCode.isPending) return;
    try {
      const saved = await saveCode.mutateAsync(code);
      setCodeError(saved.code_error ?? null);
      applySchemas(saved.data.argument_schema, saved.data.config_schema);
    } catch (error) {
      // docs/reference/console.md, "Messages": saving code only logs its errors.
      console.error('Saving the function code failed', error);
    }
  };

  // Keyboard habits: Ctrl/⌘+Enter runs, Ctrl/⌘+S saves — caught before CodeMirror or the browser sees them.
  const actions = useRef({ run, save });
  actions.current = { run, save };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      if (e.key === 'Enter') {
        e.preventDefault();
        e.stopPropagation();
        void actions.current.run();
      } else if (e.key === 's' || e.key === 'S') {
        e.preventDefault();
        e.stopPropagation();
        void actions.current.save();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const status = result?.data.status;
  const consoleEntries = result?.data.console ?? [];

  // The arguments and config editors differ only in the JSON field's label.
  const editorTexts = (jsonLabel: string) => ({
    editAsJson: t('functions.editor.editAsJson'),
    jsonLabel,
    invalidJson: t('functions.editor.invalidJson'),
    notObject: t('functions.editor.notObject'),
    noSchema: t('functions.editor.noSchema'),
  });

  return (
    <Grid columns={10} gap="md" data-testid="function-editor">
      <Grid.Col span={{ base: 10, md: 6, xl: 7 }}>
        <CodeEditor
          value={code}
          onChange={setCode}
          language="lua"
          height="70vh"
          label={t('functions.editor.code')}
          data-testid="function-code"
        />
        <Text size="xs" c="dimmed" mt={4}>
          {t('functions.editor.shortcuts')}
        </Text>
      </Grid.Col>
      <Grid.Col span={{ base: 10, md: 4, xl: 3 }}>
        <Stack gap="sm">
          <Paper withBorder p="sm" radius="md">
            <Stack gap="xs">
              <Group gap="xs" wrap="nowrap">
                <Button
                  flex={1}
                  leftSection={<IconPlayerPlay size={16} />}
                  onClick={() => void run()}
                  loading={build.isPending}
                  data-testid="function-run"
                >
                  {t('functions.editor.run')}
                </Button>
                <Tooltip label={t('functions.editor.save')}>
                  <ActionIcon
                    size="lg"
                    variant={dirty ? 'filled' : 'light'}
                    onClick={() => void save()}
                    loading={saveCode.isPending}
                    aria-label={t('functions.editor.save')}
                    data-testid="function-save-code"
                    data-dirty={String(dirty)}
                  >
                    <IconDeviceFloppy size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
              <StatRow label={t('functions.editor.status')}>
                {status === undefined ? (
                  <Badge variant="light" color="gray" data-testid="function-status" data-color="none">
                    {t('functions.editor.notRun')}
                  </Badge>
                ) : (
                  <StatusIcon status={status} testId="function-status" />
                )}
              </StatRow>
              <StatRow label={t('functions.editor.took')}>
                <Text size="sm" data-testid="function-took">
                  {result ? labels.ms(result.data.took) : '–'}
                </Text>
              </StatRow>
              <StatRow label={t('functions.editor.memory')}>
                <Text size="sm" data-testid="function-memory">
                  {result ? formatBytes(result.data.memory) : '–'}
                </Text>
              </StatRow>
              {codeError && (
                <Alert
                  color="orange"
                  variant="light"
                  p="xs"
                  icon={<IconAlertTriangle size={16} />}
                  data-testid="function-code-error"
                >
                  <Text size="xs">
                    {codeError.line
                      ? t('functions.editor.codeErrorLine', {
                          line: codeError.line,
                          message: codeError.message,
                        })
                      : t('functions.editor.codeError', { message: codeError.message })}
                  </Text>
                </Alert>
              )}
            </Stack>
          </Paper>

          <Tabs
            value={tab}
            onChange={(v) => v && setTab(v as EditorTab)}
            variant="pills"
            radius="sm"
            keepMounted
          >
            <Tabs.List style={{ gap: 4 }} grow>
              {(['results', 'arguments', 'config', 'console'] as const).map((key) => (
                <Tabs.Tab key={key} value={key} px={8} fz="xs" data-testid={`editor-tab-${key}`}>
                  {t(`functions.editor.tabs.${key}`)}
                  {key === 'console' && consoleEntries.length > 0 ? ` (${consoleEntries.length})` : ''}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="results" pt="sm">
              <Results result={result} runError={runError} />
            </Tabs.Panel>
            <Tabs.Panel value="arguments" pt="sm">
              <ObjectValueEditor
                schema={argumentSchema}
                value={args}
                onChange={setArgs}
                onValidityChange={setArgsValid}
                texts={editorTexts(t('functions.editor.jsonArguments'))}
                testId="editor-arguments"
                formId="function-arguments"
              />
            </Tabs.Panel>
            <Tabs.Panel value="config" pt="sm">
              <ObjectValueEditor
                schema={configSchema}
                value={config}
                onChange={setConfig}
                onValidityChange={setConfigValid}
                texts={editorTexts(t('functions.editor.jsonConfig'))}
                testId="editor-config"
                formId="function-config"
              />
            </Tabs.Panel>
            <Tabs.Panel value="console" pt="sm">
              <ConsoleList entries={consoleEntries} testId="editor-console" />
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** One line of the run panel: a small dimmed label and its value on the right. */
function StatRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

/** A breakpoint block (line + rendered value), an error block with its line, or the result as JSON. */
function Results({ result, runError }: { result: FunctionBuildResponse | null; runError: string | null }) {
  const { t } = useTranslation();
  if (runError) {
    return (
      <Alert color="red" variant="light" data-testid="editor-run-failed">
        {t('functions.editor.runFailed', { message: runError })}
      </Alert>
    );
  }
  if (!result) {
    return (
      <Text size="sm" c="dimmed" data-testid="editor-results-none">
        {t('functions.editor.results.none')}
      </Text>
    );
  }
  if (result.debug) {
    return (
      <Alert
        color="blue"
        variant="light"
        title={t('functions.editor.results.breakpoint', { line: result.debug.breakpoint })}
        data-testid="editor-breakpoint"
        data-line={result.debug.breakpoint}
      >
        <Code
          block
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          data-testid="editor-breakpoint-value"
        >
          {result.debug.string}
        </Code>
      </Alert>
    );
  }
  if (result.error) {
    const { line, message } = result.error;
    return (
      <Alert
        color="red"
        variant="light"
        title={
          line ? t('functions.editor.results.error', { line }) : t('functions.editor.results.errorNoLine')
        }
        data-testid="editor-error"
        data-line={line ?? ''}
      >
        <Text
          size="sm"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          data-testid="editor-error-message"
        >
          {message}
        </Text>
      </Alert>
    );
  }
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        {t('functions.editor.results.result')}
      </Text>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="editor-result">
        {prettyJson(result.data.result)}
      </Code>
    </Stack>
  );
}
