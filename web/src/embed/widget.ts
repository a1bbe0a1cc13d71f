/**
 * The web embed's chat widget (docs/reference/api.md "Reaching an app from outside"): a launcher button and a chat
 * panel in a shadow root, talking to the llmor server the script came from with `X-EmbedToken`.
 * It opens a conversation when first opened (the app's greeting), keeps its token in localStorage per
 * embed so a reload continues it, sends messages, and streams replies over the relay (socket.io, path
 * `/stream`, websocket only). Keyboard: Enter sends, Shift+Enter breaks the line, Escape closes and
 * gives focus back to the launcher. Screen readers: labelled buttons, a `log` region that announces
 * replies once complete (`aria-busy` while streaming), errors as alerts.
 */
import type {
  ConversationCreated,
  ConversationPage,
  EmbedWidgetConfig,
  Message,
  MessageSent,
} from '@llmor/contracts';
import { SOCKET_OPTIONS } from '@llmor/contracts';
import { io, type Socket } from 'socket.io-client';
import { textColorOn } from './color';
import { renderMarkdown } from './markdown';
import { WIDGET_CSS } from './styles';
import { localeOf, WIDGET_TEXTS, type WidgetTexts } from './texts';
import {
  COMPLETION_FINISHED,
  COMPLETION_STREAM,
  EMBED_TOKEN_HEADER,
  RELAY_AUTH_EMBED_TOKEN,
  RELAY_JOIN,
  RELAY_MESSAGE,
  RELAY_SOCKET_HEADER,
  USER_INPUT,
} from './wire';

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M8 9h8M8 13h6M18 4a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3h-5l-5 3v-3H6a3 3 0 0 1-3-3V7a3 3 0 0 1 3-3z"/></svg>';
const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><path d="M18 6 6 18M6 6l12 12"/></svg>';
const SEND_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M10 14 21 3M21 3l-6.5 18a.55.55 0 0 1-1 0L10 14l-7-3.5a.55.55 0 0 1 0-1z"/></svg>';

type Visible = 'user' | 'assistant' | 'error';

/** A visitor's message at most (the API takes far more; a chat box needs no pasted documents). */
const MESSAGE_MAX_LENGTH = 4000;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) if (value !== undefined) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

/** A button whose content is one of the icons above (static markup of this file, never page data). */
function iconButton(className: string, label: string, icon: string, type = 'button'): HTMLButtonElement {
  const button = element('button', { type, class: className, 'aria-label': label, title: label });
  button.innerHTML = icon;
  return button;
}

interface Stored {
  conversation?: string;
  open?: boolean;
}

class Storage {
  constructor(private readonly key: string) {}
  read(): Stored {
    try {
      return JSON.parse(localStorage.getItem(this.key) ?? '{}') as Stored;
    } catch {
      return {};
    }
  }
  write(patch: Stored): void {
    try {
      localStorage.setItem(this.key, JSON.stringify({ ...this.read(), ...patch }));
    } catch {
      // Storage refused (private mode, quota): the conversation lasts as long as the page.
    }
  }
}

class ApiError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

export class EmbedWidget {
  private readonly texts: WidgetTexts;
  private readonly storage: Storage;
  private readonly root: HTMLDivElement;
  private readonly launcher: HTMLButtonElement;
  private readonly panel: HTMLElement;
  private readonly log: HTMLDivElement;
  private readonly alert: HTMLParagraphElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private conversation: string | null;
  private relayOrigin: string;
  private socket: Socket | null = null;
  private joined = false;
  private started: Promise<void> | null = null;
  private sending = false;
  /** Resolves the wait for a reply that outlasted the server's sync window (504). */
  private replyDone: (() => void) | null = null;
  /** Message ids on screen, and bubbles not yet matched to a stored message (sent, or still streaming). */
  private readonly shown = new Set<number>();
  private pending: { role: Visible; el: HTMLElement }[] = [];
  private stream: { el: HTMLElement; text: string; frame: number } | null = null;

  constructor(
    private readonly config: EmbedWidgetConfig,
    private readonly server: string,
    host: HTMLElement,
  ) {
    const locale = localeOf(navigator.languages ?? [navigator.language]);
    this.texts = WIDGET_TEXTS[locale];
    this.storage = new Storage(`llmor-embed:${config.token}`);
    this.conversation = this.storage.read().conversation ?? null;
    this.relayOrigin = server;
    const title = config.title || this.texts.title;

    const shadow = host.attachShadow({ mode: 'open' });
    // A constructed sheet needs no inline <style>, so a page's strict CSP (style-src) does not block it.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(WIDGET_CSS);
    shadow.adoptedStyleSheets = [sheet];

    const panelId = 'llmor-chat-panel';
    const titleId = 'llmor-chat-title';
    this.log = element('div', {
      class: 'log',
      role: 'log',
      'aria-live': 'polite',
      'aria-labelledby': titleId,
    });
    this.alert = element('p', { class: 'alert', role: 'alert' });
    this.input = element('textarea', {
      rows: '1',
      'aria-label': this.texts.message,
      placeholder: this.texts.placeholder,
      maxlength: String(MESSAGE_MAX_LENGTH),
    });
    this.sendButton = iconButton('icon-button send', this.texts.send, SEND_ICON, 'submit');
    const form = element('form', { class: 'form' }, this.input, this.sendButton);
    const close = iconButton('icon-button', this.texts.close, CLOSE_ICON);
    this.panel = element(
      'section',
      { class: 'panel', id: panelId, role: 'dialog', 'aria-labelledby': titleId, hidden: '' },
      element('div', { class: 'head' }, element('h2', { id: titleId }, title), close),
      this.log,
      this.alert,
      form,
    );
    this.launcher = iconButton('launcher', this.texts.open, CHAT_ICON);
    this.launcher.setAttribute('aria-expanded', 'false');
    this.launcher.setAttribute('aria-controls', panelId);
    this.root = element(
      'div',
      { class: config.position === 'bottom-left' ? 'root left' : 'root' },
      this.panel,
      this.launcher,
    );
    this.root.style.setProperty('--accent', config.color);
    this.root.style.setProperty('--on-accent', textColorOn(config.color));
    shadow.append(this.root);
    if (config.welcome_text) this.log.append(this.bubble('assistant', config.welcome_text));

    this.launcher.addEventListener('click', () => (this.panel.hidden ? this.open() : this.close()));
    close.addEventListener('click', () => this.close());
    this.panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.close();
      }
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    this.input.addEventListener('input', () => this.fitInput());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.send();
    });

    if (this.storage.read().open) this.open(false);
  }

  open(focus = true): void {
    this.panel.hidden = false;
    this.launcher.setAttribute('aria-expanded', 'true');
    this.launcher.setAttribute('aria-label', this.texts.close);
    this.launcher.title = this.texts.close;
    this.storage.write({ open: true });
    if (focus) this.input.focus();
    this.scrollDown(true);
    this.started ??= this.start();
  }

  close(): void {
    this.panel.hidden = true;
    this.launcher.setAttribute('aria-expanded', 'false');
    this.launcher.setAttribute('aria-label', this.texts.open);
    this.launcher.title = this.texts.open;
    this.storage.write({ open: false });
    this.launcher.focus();
  }

  /** Continues the stored conversation, else opens one; then listens on the relay. */
  private async start(): Promise<void> {
    try {
      if (this.conversation) {
        try {
          await this.refresh();
        } catch (err) {
          // Gone, or no longer this embed's: start afresh. Anything else: keep it for a later visit.
          if (!(err instanceof ApiError && (err.status === 401 || err.status === 404))) throw err;
          this.conversation = null;
        }
      }
      if (!this.conversation) {
        const locale = localeOf(navigator.languages ?? [navigator.language]);
        const created = await this.call<{ data: ConversationCreated }>(
          'POST',
          `/v1/conversations?locale=${locale}`,
          { vendor_app_id: this.config.app_id, vendor_channel: 'embed', parameters: {} },
        );
        this.conversation = created.data.token;
        this.storage.write({ conversation: created.data.token });
        this.adoptRelayUrl(created.data.relay_url);
        this.sync(created.data.messages);
      }
      this.connect();
    } catch {
      this.started = null; // opening the panel again tries again
      this.showAlert(this.texts.unavailable);
    }
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { [EMBED_TOKEN_HEADER]: this.config.token };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST' && this.joined && this.socket?.id) headers[RELAY_SOCKET_HEADER] = this.socket.id;
    const res = await fetch(`${this.server}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      mode: 'cors',
    });
    if (!res.ok) throw new ApiError(res.status);
    return (await res.json()) as T;
  }

  /**
   * The stored conversation's newest page (docs/adr/0026-messages-contract.md), reconciled with what is
   * on screen: a visitor sees the recent exchange, not the whole history.
   */
  private async refresh(): Promise<void> {
    const answer = await this.call<ConversationPage>('GET', `/v1/conversations/${this.conversation}`);
    this.adoptRelayUrl(answer.conversation.relay_url);
    this.sync(answer.data);
  }

  private adoptRelayUrl(relayUrl: string): void {
    try {
      this.relayOrigin = new URL(relayUrl, this.server).origin;
    } catch {
      this.relayOrigin = this.server;
    }
  }

  private connect(): void {
    if (this.socket) return;
    const socket = io(this.relayOrigin, {
      ...SOCKET_OPTIONS,
      transports: [...SOCKET_OPTIONS.transports],
      // The relay admits the embed that opened the conversation, from the pages it allows.
      auth: { [RELAY_AUTH_EMBED_TOKEN]: this.config.token },
    });
    this.socket = socket;
    let reconnect = false;
    socket.on('connect', () => {
      socket.emit(RELAY_JOIN, this.conversation, (ack: { ok: boolean } | undefined) => {
        this.joined = ack?.ok === true;
        // After a lost connection, fetch what was said meanwhile.
        if (reconnect && this.joined && !this.sending) void this.refresh().catch(() => undefined);
        reconnect = true;
      });
    });
    socket.on('disconnect', () => {
      this.joined = false;
    });
    socket.on(RELAY_MESSAGE, (raw: string) => this.onRelayMessage(raw));
  }

  private onRelayMessage(raw: string): void {
    let message: { type?: string; data?: Record<string, unknown> };
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    const data = message.data ?? {};
    switch (message.type) {
      case USER_INPUT: {
        // Sent from another tab of this visitor.
        const sent = data.message as Message | undefined;
        if (sent) this.sync([sent]);
        break;
      }
      case COMPLETION_STREAM:
        if (typeof data.chunk === 'string') this.appendStream(data.chunk);
        break;
      case COMPLETION_FINISHED:
        // Our own POST answers with the stored reply (unless it timed out); a reply to another tab is fetched.
        if (this.replyDone) {
          this.replyDone();
          this.replyDone = null;
        } else if (!this.sending) void this.refresh().catch(() => undefined);
        break;
    }
  }

  private async send(): Promise<void> {
    const content = this.input.value.trim();
    if (!content || this.sending || !this.conversation) return;
    this.sending = true;
    this.sendButton.disabled = true;
    this.showAlert('');
    this.input.value = '';
    this.fitInput();
    const sent = this.bubble('user', content);
    this.pending.push({ role: 'user', el: sent });
    this.log.append(sent);
    this.showThinking();
    this.scrollDown(true);
    try {
      // The answer holds the messages this send added (docs/adr/0026-messages-contract.md).
      const answer = await this.call<MessageSent>('POST', `/v1/conversations/${this.conversation}`, {
        content,
      });
      this.sync(answer.data);
    } catch (err) {
      // 504: the reply takes longer than the server waits; it goes on streaming and is fetched when done.
      if (err instanceof ApiError && err.status === 504) await this.waitForReply();
      else this.showAlert(this.texts.failed);
    } finally {
      this.sending = false;
      this.sendButton.disabled = false;
      this.endStream();
    }
  }

  /** Until the relay says the reply is done (without the relay, what is stored by now), then fetches it. */
  private async waitForReply(): Promise<void> {
    if (this.joined) await new Promise<void>((resolve) => (this.replyDone = resolve));
    await this.refresh().catch(() => this.showAlert(this.texts.failed));
  }

  /** Shows stored messages not yet on screen; bubbles sent or streamed here take their stored text. */
  private sync(messages: Message[]): void {
    for (const message of messages) {
      if (this.shown.has(message.id)) continue;
      const role = visibleRole(message);
      if (!role) continue;
      this.shown.add(message.id);
      const text = message.message ?? '';
      const index = this.pending.findIndex((p) => p.role === role);
      if (index >= 0) {
        const [{ el }] = this.pending.splice(index, 1) as [{ role: Visible; el: HTMLElement }];
        if (el === this.stream?.el) this.endStream();
        this.fill(el, role, text);
        el.removeAttribute('aria-busy');
        this.linkSources(el, message.sources);
      } else this.log.append(this.linkSources(this.bubble(role, text), message.sources));
    }
    this.scrollDown(false);
  }

  private showThinking(): void {
    const el = element(
      'div',
      { class: 'msg assistant', 'aria-busy': 'true' },
      element(
        'span',
        { class: 'typing', 'aria-hidden': 'true' },
        element('span'),
        element('span'),
        element('span'),
      ),
      element('span', { class: 'sr-only' }, this.texts.thinking),
    );
    this.pending.push({ role: 'assistant', el });
    this.stream = { el, text: '', frame: 0 };
    this.log.append(el);
  }

  private appendStream(chunk: string): void {
    if (!this.stream) this.showThinking();
    const stream = this.stream!;
    stream.text += chunk;
    // Re-rendered once per frame however fast chunks come.
    stream.frame ||= requestAnimationFrame(() => {
      stream.frame = 0;
      this.fill(stream.el, 'assistant', stream.text);
      this.scrollDown(false);
    });
  }

  private endStream(): void {
    if (!this.stream) return;
    cancelAnimationFrame(this.stream.frame);
    const { el, text } = this.stream;
    this.stream = null;
    // A reply that streamed but was not stored (failed) keeps its text; an empty placeholder goes.
    const index = this.pending.findIndex((p) => p.el === el);
    if (index < 0) return;
    this.pending.splice(index, 1);
    if (text) {
      this.fill(el, 'assistant', text);
      el.removeAttribute('aria-busy');
    } else el.remove();
  }

  private bubble(role: Visible, text: string): HTMLElement {
    const el = element('div', {});
    this.fill(el, role, text);
    return el;
  }

  private fill(el: HTMLElement, role: Visible, text: string): void {
    el.className = `msg ${role}`;
    if (role === 'assistant') el.replaceChildren(renderMarkdown(document, text));
    else el.textContent = text;
  }

  /** Under an answer: links to the pages its passages came from (those whose document has an address). */
  private linkSources(el: HTMLElement, sources: Message['sources'] = []): HTMLElement {
    const links = new Map<string, string>();
    for (const { source } of sources) {
      if (source?.url && /^https?:\/\//i.test(source.url) && !links.has(source.url)) {
        links.set(source.url, source.file ?? source.url);
      }
    }
    if (links.size === 0) return el;
    el.append(
      element(
        'div',
        { class: 'sources' },
        this.texts.sources,
        ...[...links].map(([url, label]) =>
          element('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, label),
        ),
      ),
    );
    return el;
  }

  private showAlert(text: string): void {
    this.alert.textContent = text;
  }

  private fitInput(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${this.input.scrollHeight + 2}px`;
  }

  /** Follows new content unless the visitor scrolled up to read. */
  private scrollDown(force: boolean): void {
    const log = this.log;
    if (force || log.scrollHeight - log.scrollTop - log.clientHeight < 80) log.scrollTop = log.scrollHeight;
  }
}

function visibleRole(message: Message): Visible | null {
  if (message.role === 'user' || message.role === 'error') return message.role;
  if (message.role === 'assistant' && message.message) return 'assistant';
  return null;
}
