// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n';
import { ApiError } from '../lib/api/error';
import { LoadError } from './LoadError';

afterEach(cleanup);

function show(error: unknown, onRetry = vi.fn()) {
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <LoadError error={error} onRetry={onRetry} testId="things-load-error" />
      </MantineProvider>
    </I18nextProvider>,
  );
  return onRetry;
}

describe('LoadError', () => {
  it('says a network failure in the console’s words, never the browser’s, and offers Try again', () => {
    const onRetry = show(new ApiError(0, { name: 'NetworkError', message: 'Failed to fetch' }));
    const alert = screen.getByTestId('things-load-error');
    expect(alert.textContent).toContain('Could not connect to server');
    expect(alert.textContent).not.toContain('Failed to fetch');
    fireEvent.click(screen.getByTestId('things-load-error-retry'));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows the server’s message', () => {
    show(new ApiError(500, { name: 'InternalServerError', message: 'The database is not answering.' }));
    expect(screen.getByTestId('things-load-error').textContent).toContain('The database is not answering.');
    expect(screen.getByTestId('things-load-error-retry').textContent).toBe('Try again');
  });
});
