// @vitest-environment happy-dom
import { MESSAGE_MAX_CHARS } from '@llmor/contracts';
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import '../i18n';
import { Composer } from './Composer';

// Mantine's auto-growing textarea reads document.fonts, which happy-dom lacks.
if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget() });

afterEach(cleanup);

function renderComposer(value: string) {
  const onSend = vi.fn();
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <Composer value={value} onChange={() => {}} onSend={onSend} />
      </MantineProvider>
    </I18nextProvider>,
  );
  return onSend;
}

const send = () => screen.getByTestId('composer-send') as HTMLButtonElement;

describe('the composer at the message limit', () => {
  it('sends a message of exactly the limit, counting its characters', () => {
    const onSend = renderComposer('x'.repeat(MESSAGE_MAX_CHARS));
    expect(screen.getByText(/100,000 \/ 100,000 characters/)).toBeTruthy();
    expect(send().disabled).toBe(false);
    fireEvent.keyDown(screen.getByTestId('composer-input'), { key: 'Enter' });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('says what the limit is past it and sends nothing, neither by button nor by Enter', () => {
    const onSend = renderComposer('x'.repeat(MESSAGE_MAX_CHARS + 1));
    expect(screen.getByText('A message may have at most 100,000 characters.')).toBeTruthy();
    expect(send().disabled).toBe(true);
    fireEvent.keyDown(screen.getByTestId('composer-input'), { key: 'Enter' });
    fireEvent.click(send());
    expect(onSend).not.toHaveBeenCalled();
  });

  it('shows no count for an ordinary message', () => {
    renderComposer('Hello');
    expect(screen.queryByText(/characters/)).toBeNull();
  });
});
