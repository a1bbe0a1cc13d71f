// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import { createQueryClient } from '../../../lib/api/dataLayer';
import '../i18n';
import { ImportModal } from './ImportModal';

/** The browser's XMLHttpRequest as the upload uses it, driven by the test: progress, the answer, abort. */
class FakeUpload {
  static made: FakeUpload[] = [];
  upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  status = 0;
  statusText = '';
  responseText = '';
  url = '';
  aborted = false;
  constructor() {
    FakeUpload.made.push(this);
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send() {}
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(share: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded: share * 1000, total: 1000 }));
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
}

beforeEach(() => {
  FakeUpload.made = [];
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
  // The datastore's status, read once documents are imported: two, neither embedded yet.
  vi.spyOn(globalThis, 'fetch').mockImplementation(
    async () =>
      new Response(JSON.stringify({ data: { documents: 2, pending: 2, failed: 0, last_error: null } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function open(files: string[]) {
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider env="test">
        <QueryClientProvider client={createQueryClient()}>
          <ImportModal datastoreId={7} opened onClose={() => {}} />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  fireEvent.drop(screen.getByTestId('import-dropzone'), {
    dataTransfer: { files: files.map((name) => new File(['# Guide\n\nWelcome.'], name)) },
  });
  fireEvent.click(screen.getByTestId('import-start'));
}

const row = (name: string) => screen.getByTestId(`import-file-${name}`);
const statusOf = (name: string) => row(name).getAttribute('data-status');
/** The upload the dialog is making (its XMLHttpRequest is made once the request is signed). */
async function uploadMade(count = 1): Promise<FakeUpload> {
  await waitFor(() => expect(FakeUpload.made).toHaveLength(count));
  return FakeUpload.made[count - 1]!;
}

describe('ImportModal', () => {
  it('names each step: uploading with its progress, parsing once every byte is sent, then done and embedding', async () => {
    open(['guide.md']);
    const xhr = await uploadMade();
    expect(xhr.url).toContain('/v1/datastores/7/docs/upload?');
    expect(xhr.url).toContain('mode=markdown');
    expect(statusOf('guide.md')).toBe('uploading');
    expect(row('guide.md').textContent).toContain('uploading…');

    xhr.progress(0.5);
    expect(statusOf('guide.md')).toBe('uploading');
    const bar = screen.getByTestId('import-file-progress').querySelector('[role="progressbar"]');
    expect(bar?.getAttribute('aria-valuenow')).toBe('50');

    xhr.progress(1);
    expect(statusOf('guide.md')).toBe('parsing');
    expect(row('guide.md').textContent).toContain('parsing…');
    expect(screen.getByTestId('import-file-parsing').textContent).toBe(
      'Sent; the server is reading the file…',
    );
    expect(screen.queryByTestId('import-file-progress')).toBeNull();

    xhr.answer(200, { data: [{ id: 1 }, { id: 2 }] });
    await waitFor(() => expect(statusOf('guide.md')).toBe('done'));
    expect(row('guide.md').textContent).toContain('done: 2 new');
    expect((await screen.findByTestId('import-embedding')).textContent).toBe(
      'Embedding in the background: 0 of 2 documents searchable.',
    );
  });

  it("shows the server's refusal as the server words it", async () => {
    open(['deep.md']);
    const xhr = await uploadMade();
    xhr.progress(1);
    const refusal = 'The Markdown nests deeper than 1,000 levels; flatten it and import it again.';
    xhr.answer(400, { name: 'ValidationError', message: refusal });
    await waitFor(() => expect(statusOf('deep.md')).toBe('error'));
    expect(screen.getByTestId('import-file-error').textContent).toBe(refusal);
    expect(screen.queryByTestId('import-summary')).toBeNull();
  });

  it('cancel aborts the upload under way and leaves the next file unsent', async () => {
    open(['first.md', 'second.md']);
    const xhr = await uploadMade();
    xhr.progress(1);
    fireEvent.click(screen.getByTestId('import-cancel'));
    expect(xhr.aborted).toBe(true);
    await waitFor(() => expect(statusOf('first.md')).toBe('cancelled'));
    expect(statusOf('second.md')).toBe('pending');
    expect(FakeUpload.made).toHaveLength(1);
    // The run is over: the dialog can start again.
    expect(screen.queryByTestId('import-cancel')).toBeNull();
  });

  it('closing the dialog aborts the upload under way and forgets the run', async () => {
    open(['first.md', 'second.md']);
    (await uploadMade()).answer(200, { data: [{ id: 1 }] });
    const second = await uploadMade(2);
    second.progress(0.3);
    fireEvent.click(screen.getByTestId('import-modal').ownerDocument.querySelector('.mantine-Modal-close')!);
    expect(second.aborted).toBe(true);
    await waitFor(() => expect(screen.queryByTestId('import-cancel')).toBeNull());
    expect(screen.queryByTestId('import-files')).toBeNull();
    expect(screen.queryByTestId('import-summary')).toBeNull();
  });
});
