// @vitest-environment happy-dom
import {
  type Conversation,
  type ConversationCreated,
  type ConversationPage,
  ErrorCode,
  type Message,
  type MessageSent,
  RelayClientEvent,
  RelayMessageType,
  RelayServerEvent,
} from '@llmor/contracts';
import { MantineProvider } from '@mantine/core';
import { notifyManager, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import {
  MemoryRouter,
  type NavigateFunction,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
} from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import { createQueryClient } from '../../../lib/api/dataLayer';
import { ApiError } from '../../../lib/api/error';
import type { ConversationApi, ConversationDependencies } from '../hooks/useConversation';
import type { RelaySocket } from '../hooks/useRelaySocket';
import { ConversationsPage } from './ConversationsView';

// The history list fetches on its own and is not what these tests are about.
vi.mock('./HistoryList', () => ({ HistoryList: () => null }));

// The pages come through the query cache, which tells its observers on a timer by default; on a microtask they
// have it inside the same act() that answered the call, as the screen had it when it fetched by itself.
notifyManager.setScheduler(queueMicrotask);

// Mantine's autosizing textarea listens for web fonts loading; happy-dom has no FontFaceSet.
if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget() });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A call the screen made, answered when the test says so. */
type Call<A, T> = { args: A } & Deferred<T>;

/** The API as the screen sees it: every call is recorded and stays open until the test answers it. */
class FakeApi implements ConversationApi {
  loads: Call<string, ConversationPage>[] = [];
  olderLoads: Call<{ token: string; cursor: string }, ConversationPage>[] = [];
  sends: Call<{ token: string; content: string; socketId?: string }, MessageSent>[] = [];
  creates: Call<number, ConversationCreated>[] = [];

  private record<A, T>(calls: Call<A, T>[], args: A): Promise<T> {
    const call = { args, ...deferred<T>() };
    calls.push(call);
    return call.promise;
  }

  load = (token: string) => this.record(this.loads, token);
  loadOlder = (token: string, cursor: string) => this.record(this.olderLoads, { token, cursor });
  send = (request: { token: string; content: string; socketId?: string }) => this.record(this.sends, request);
  create = (appId: number) => this.record(this.creates, appId);
}

/**
 * The relay as a socket.io client socket sees it: the test connects and drops it and sends the server's events;
 * joins are acknowledged as the relay does.
 */
class FakeSocket implements RelaySocket {
  id = 'socket-1';
  connected = false;
  emitted: Array<{ event: string; args: unknown[] }> = [];
  private listeners = new Map<string, Array<(...args: unknown[]) => void>>();

  on(event: string, listener: (...args: unknown[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push({ event, args });
    const ack = args[args.length - 1];
    if (event === RelayClientEvent.join && typeof ack === 'function') ack({ ok: true });
  }
  connect() {}
  disconnect() {
    this.connected = false;
  }
  removeAllListeners() {
    this.listeners.clear();
  }

  private fire(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  serverConnects() {
    this.connected = true;
    this.fire('connect');
  }
  serverDrops() {
    this.connected = false;
    this.fire('disconnect', 'transport close');
  }
  serverSends(type: string, data: unknown) {
    this.fire(RelayServerEvent.message, JSON.stringify({ type, data }));
  }
  sent(event: string) {
    return this.emitted.filter((e) => e.event === event);
  }
}

const conversation = (token: string): Conversation => ({
  id: 1,
  token,
  created_at: '2026-01-01T00:00:00.000Z',
  vendor_app_id: 7,
  channel: 'management',
  parameters: {},
  relay_url: 'http://relay.test/stream',
  state: {},
});

const message = (id: number, role: 'user' | 'assistant', text: string): Message => ({
  id,
  role,
  creator: role === 'user' ? 'user' : 'system',
  message: text,
  created_at: '2026-01-01T00:00:00.000Z',
  has_been_modified: false,
  versions: [],
  function_calls: [],
  function_response: null,
  sources: [],
});

const page = (token: string, data: Message[], cursor: string | null = null): ConversationPage => ({
  conversation: conversation(token),
  data,
  next_cursor: cursor,
});

const GREETING = [message(1, 'user', 'Hi'), message(2, 'assistant', 'Hello!')];

const chatPath = (token: string | undefined) => (token ? `/apps/7/chat/${token}` : '/apps/7/chat');

/** The page as the console routes it: the token comes from the address. */
function RoutedPage({ dependencies }: { dependencies: ConversationDependencies }) {
  const { token } = useParams();
  return <ConversationsPage appId={7} token={token} dependencies={dependencies} />;
}

/** Shows where the screen routed to and lets the test route elsewhere, as a click in the history list does. */
function Address({ onNavigate }: { onNavigate(navigate: NavigateFunction): void }) {
  onNavigate(useNavigate());
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function setup(token: string | undefined) {
  const api = new FakeApi();
  const sockets: FakeSocket[] = [];
  const dependencies: ConversationDependencies = {
    api,
    connect: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    stateFetchDelayMs: 0,
    socketWait: { tries: 1, intervalMs: 0 },
  };
  let navigate: NavigateFunction | undefined;
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={[chatPath(token)]}>
            <Routes>
              <Route path="/apps/7/chat/:token?" element={<RoutedPage dependencies={dependencies} />} />
            </Routes>
            <Address onNavigate={(next) => (navigate = next)} />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  const route = (next: string | undefined) => act(() => navigate!(chatPath(next)));
  const socket = () => {
    const last = sockets[sockets.length - 1];
    if (!last) throw new Error('no relay socket was opened');
    return last;
  };
  return { api, socket, route };
}

/** The ids of the listed messages (null for those not stored yet), and whether a reply is shown streaming. */
function listed() {
  return screen.queryAllByTestId('message').map((el) => {
    const id = el.getAttribute('data-message-id');
    return `${el.getAttribute('data-role')}:${id ?? 'new'}${el.hasAttribute('data-streaming') ? ':streaming' : ''}`;
  });
}

/** Loads `token` with `messages` and has the relay socket join it. */
async function opened(token: string, messages: Message[] = GREETING, cursor: string | null = null) {
  const env = setup(token);
  await act(async () => env.api.loads[0]!.resolve(page(token, messages, cursor)));
  act(() => env.socket().serverConnects());
  await waitFor(() =>
    expect(screen.getByTestId('socket-status').getAttribute('data-status')).toBe('connected'),
  );
  return env;
}

const composer = () => screen.getByTestId('composer-input') as HTMLTextAreaElement;
const sendButton = () => screen.getByTestId('composer-send') as HTMLButtonElement;

function type(text: string) {
  fireEvent.change(composer(), { target: { value: text } });
}

async function sendText(text: string) {
  type(text);
  await act(async () => fireEvent.click(sendButton()));
}

describe('the conversation screen', () => {
  it('ignores a load answered after the user opened another conversation', async () => {
    const { api, route } = setup('a');
    route('b');
    expect(api.loads.map((c) => c.args)).toEqual(['a', 'b']);
    await act(async () => api.loads[1]!.resolve(page('b', [message(20, 'assistant', 'from b')])));
    expect(listed()).toEqual(['assistant:20']);
    await act(async () => api.loads[0]!.resolve(page('a', [message(10, 'assistant', 'from a')])));
    expect(listed()).toEqual(['assistant:20']);
  });

  it('says why a conversation did not load and goes back to the empty screen', async () => {
    const { api } = setup('gone');
    await act(async () =>
      api.loads[0]!.reject(new ApiError(404, { name: 'NotFound', message: 'Conversation not found.' })),
    );
    expect(screen.getByTestId('location').textContent).toBe('/apps/7/chat');
    expect(listed()).toEqual(['error:new']);
    await screen.findByText('Conversation not found.');
  });

  it('fetches a conversation anew when it is opened again', async () => {
    const { api, route } = await opened('a');
    route('b');
    await act(async () => api.loads[1]!.resolve(page('b', [message(20, 'assistant', 'from b')])));
    route('a');
    expect(api.loads.map((c) => c.args)).toEqual(['a', 'b', 'a']);
    screen.getByLabelText(i18n.t('conversations.messages.loading'));
    await act(async () => api.loads[2]!.resolve(page('a', [...GREETING, message(3, 'user', 'later')])));
    expect(listed()).toEqual(['user:1', 'assistant:2', 'user:3']);
  });

  it('asks the relay for the state once the conversation is loaded and joined', async () => {
    const { socket } = await opened('a');
    await waitFor(() => expect(socket().sent(RelayClientEvent.get)).toHaveLength(1));
  });

  it('shows a reply streamed over the relay before the send answered once, not twice', async () => {
    const { api, socket } = await opened('a');
    await sendText('What time is it?');
    expect(api.sends[0]!.args).toEqual({ token: 'a', content: 'What time is it?', socketId: 'socket-1' });
    expect(listed()).toEqual(['user:1', 'assistant:2', 'user:new', 'assistant:new:streaming']);

    act(() => socket().serverSends(RelayMessageType.completionStream, { chunk: 'Noon' }));
    await screen.findByText('Noon');
    act(() => socket().serverSends(RelayMessageType.completionFinished, { input_async: false }));

    await act(async () =>
      api.sends[0]!.resolve({
        conversation: conversation('a'),
        data: [message(3, 'user', 'What time is it?'), message(4, 'assistant', 'Noon')],
      }),
    );
    expect(listed()).toEqual(['user:1', 'assistant:2', 'user:3', 'assistant:4']);
    // The answer carried the stored messages: nothing is fetched again.
    expect(api.loads).toHaveLength(1);
  });

  it('on 504 keeps the message and takes the reply from the relay, then the stored messages', async () => {
    const { api, socket } = await opened('a');
    await sendText('Long question');
    await act(async () =>
      api.sends[0]!.reject(new ApiError(504, { name: 'GatewayTimeout', message: 'Still working.' })),
    );
    expect(listed()).toEqual(['user:1', 'assistant:2', 'user:new', 'assistant:new:streaming']);
    expect(screen.queryByText('Still working.')).toBeNull();

    act(() => socket().serverSends(RelayMessageType.completionStream, { chunk: 'Long answer' }));
    await screen.findByText('Long answer');
    act(() => socket().serverSends(RelayMessageType.completionFinished, { input_async: false }));
    await waitFor(() => expect(api.loads).toHaveLength(2));
    await act(async () =>
      api.loads[1]!.resolve(
        page('a', [...GREETING, message(3, 'user', 'Long question'), message(4, 'assistant', 'Long answer')]),
      ),
    );
    expect(listed()).toEqual(['user:1', 'assistant:2', 'user:3', 'assistant:4']);
  });

  it('on 409 restores the list and the typed text and says a reply is still running', async () => {
    const { api } = await opened('a');
    await sendText('Again');
    await act(async () =>
      api.sends[0]!.reject(new ApiError(409, { name: 'Conflict', message: 'A reply is still running.' })),
    );
    expect(listed()).toEqual(['user:1', 'assistant:2', 'error:new']);
    await screen.findByText('A reply is still running.');
    expect(composer().value).toBe('Again');
    expect(screen.queryByTestId('usage-limit-banner')).toBeNull();
  });

  it("on 402 past the plan's limits shows the server's message with a way to upgrade", async () => {
    const { api } = await opened('a');
    await sendText('One more');
    await act(async () =>
      api.sends[0]!.reject(
        new ApiError(402, {
          name: 'PaymentRequired',
          code: ErrorCode.USAGE_LIMIT_REACHED,
          message: 'The plan allows no more requests this month.',
        }),
      ),
    );
    const banner = screen.getByTestId('usage-limit-banner');
    expect(banner.textContent).toContain('The plan allows no more requests this month.');
    expect(screen.getByTestId('usage-limit-upgrade').getAttribute('href')).toBe('/settings/subscription');
    expect(listed()).toEqual(['user:1', 'assistant:2', 'error:new']);

    // The next send that goes through takes the banner away.
    await sendText('Now?');
    await act(async () =>
      api.sends[1]!.resolve({
        conversation: conversation('a'),
        data: [message(3, 'user', 'Now?'), message(4, 'assistant', 'Yes')],
      }),
    );
    expect(screen.queryByTestId('usage-limit-banner')).toBeNull();
  });

  it('while the relay reconnects shows a banner and does not send; on rejoin reloads what was missed', async () => {
    const { api, socket } = await opened('a');
    act(() => socket().serverSends(RelayMessageType.completionStream, { chunk: 'Half a rep' }));
    await screen.findByText('Half a rep');

    act(() => socket().serverDrops());
    screen.getByTestId('socket-reconnecting');
    expect(sendButton().disabled).toBe(true);
    type('Are you there?');
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(api.sends).toHaveLength(0);

    const gets = socket().sent(RelayClientEvent.get).length;
    act(() => socket().serverConnects());
    expect(screen.queryByTestId('socket-reconnecting')).toBeNull();
    expect(sendButton().disabled).toBe(false);
    // The partial reply is dropped, the stored messages and the state fetched again.
    expect(screen.queryByText('Half a rep')).toBeNull();
    await waitFor(() => expect(api.loads).toHaveLength(2));
    expect(socket().sent(RelayClientEvent.get)).toHaveLength(gets + 1);
    await act(async () =>
      api.loads[1]!.resolve(page('a', [...GREETING, message(3, 'assistant', 'Half a reply, whole')])),
    );
    expect(listed()).toEqual(['user:1', 'assistant:2', 'assistant:3']);
  });

  it('loads older pages before the shown messages, in order and without duplicates', async () => {
    const { api } = await opened('a', [message(5, 'user', 'five'), message(6, 'assistant', 'six')], 'c1');
    await act(async () => fireEvent.click(screen.getByTestId('messages-older')));
    expect(api.olderLoads.map((c) => c.args)).toEqual([{ token: 'a', cursor: 'c1' }]);
    screen.getByTestId('messages-older-loading');
    // The page overlaps what is shown (a message stored meanwhile shifted the pages): 5 is listed once.
    await act(async () =>
      api.olderLoads[0]!.resolve(
        page(
          'a',
          [message(3, 'user', 'three'), message(4, 'assistant', 'four'), message(5, 'user', 'five')],
          'c2',
        ),
      ),
    );
    expect(listed()).toEqual(['user:3', 'assistant:4', 'user:5', 'assistant:6']);

    await act(async () => fireEvent.click(screen.getByTestId('messages-older')));
    expect(api.olderLoads[1]!.args).toEqual({ token: 'a', cursor: 'c2' });
    await act(async () => api.olderLoads[1]!.resolve(page('a', GREETING, null)));
    expect(listed()).toEqual(['user:1', 'assistant:2', 'user:3', 'assistant:4', 'user:5', 'assistant:6']);
    expect(screen.queryByTestId('messages-older')).toBeNull();
  });

  it('ignores an older page answered after the user opened another conversation', async () => {
    const { api, route } = await opened('a', GREETING, 'c1');
    await act(async () => fireEvent.click(screen.getByTestId('messages-older')));
    route('b');
    await act(async () => api.loads[1]!.resolve(page('b', [message(20, 'assistant', 'from b')])));
    await act(async () => api.olderLoads[0]!.resolve(page('a', [message(0, 'user', 'old a')])));
    expect(listed()).toEqual(['assistant:20']);
  });

  it('with no conversation yet, starts one, routes to it and sends the text there', async () => {
    const { api } = setup(undefined);
    screen.getByTestId('conversation-empty');
    await sendText('First words');
    expect(api.creates.map((c) => c.args)).toEqual([7]);
    await act(async () =>
      api.creates[0]!.resolve({ ...conversation('new'), messages: [message(1, 'assistant', 'Welcome')] }),
    );
    expect(screen.getByTestId('location').textContent).toBe('/apps/7/chat/new');
    await waitFor(() => expect(api.sends).toHaveLength(1));
    expect(api.sends[0]!.args).toMatchObject({ token: 'new', content: 'First words' });
    expect(listed()).toEqual(['assistant:1', 'user:new', 'assistant:new:streaming']);
  });

  it('keeps the greeting of a conversation started here when its first send fails', async () => {
    const { api } = setup(undefined);
    await sendText('First words');
    await act(async () =>
      api.creates[0]!.resolve({ ...conversation('new'), messages: [message(1, 'assistant', 'Welcome')] }),
    );
    await waitFor(() => expect(api.sends).toHaveLength(1));
    await act(async () =>
      api.sends[0]!.reject(new ApiError(409, { name: 'Conflict', message: 'A reply is still running.' })),
    );
    expect(listed()).toEqual(['assistant:1', 'error:new']);
    expect(composer().value).toBe('First words');
  });

  it('keeps the typed text and says so when a conversation cannot be started', async () => {
    const { api } = setup(undefined);
    await sendText('First words');
    await act(async () =>
      api.creates[0]!.reject(new ApiError(403, { name: 'Forbidden', message: 'Not allowed here.' })),
    );
    await screen.findByText('Not allowed here.');
    expect(composer().value).toBe('First words');
    expect(api.sends).toHaveLength(0);
  });

  it("past the plan's limits opens no conversation: the server's message, the text kept, no route", async () => {
    const { api } = setup(undefined);
    await sendText('First words');
    await act(async () =>
      api.creates[0]!.reject(
        new ApiError(402, {
          name: 'PaymentRequired',
          code: ErrorCode.USAGE_LIMIT_REACHED,
          message: 'The plan allows no more requests this month.',
        }),
      ),
    );
    expect(screen.getByTestId('usage-limit-banner').textContent).toContain(
      'The plan allows no more requests this month.',
    );
    expect(screen.getByTestId('location').textContent).toBe('/apps/7/chat');
    expect(composer().value).toBe('First words');
    expect(api.sends).toHaveLength(0);
  });
});
