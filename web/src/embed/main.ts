/**
 * Entry of the web embed's widget (`GET /embed/js/{token}`): the server wraps this script in a function
 * whose parameter `__llmorEmbedConfig` (EMBED_CONFIG_NAME) is the embed's configuration; the script's
 * own address is the llmor server.
 */
import type { EmbedWidgetConfig } from '@llmor/contracts';
import { EmbedWidget } from './widget';

declare const __llmorEmbedConfig: EmbedWidgetConfig | undefined;
// `typeof`: the built file loaded on its own (not through /embed/js/{token}) does nothing.
const config = typeof __llmorEmbedConfig === 'object' ? __llmorEmbedConfig : undefined;

/** The origin this script was loaded from: where the API and the relay are. */
function serverOrigin(config: EmbedWidgetConfig): string | null {
  const script =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>(`script[src*="/embed/js/${config.token}"]`);
  try {
    return script ? new URL(script.src, location.href).origin : null;
  } catch {
    return null;
  }
}

function mount(config: EmbedWidgetConfig, origin: string): void {
  // The script included twice on a page shows one widget.
  if (document.querySelector(`[data-llmor-embed="${config.token}"]`)) return;
  const host = document.createElement('div');
  host.dataset.llmorEmbed = config.token;
  // The page's rules for `div` (display: none, transforms that break fixed positioning…) stop at an
  // inline !important reset; set through the CSSOM, which a page's CSP does not block.
  host.style.setProperty('all', 'initial', 'important');
  document.body.append(host);
  new EmbedWidget(config, origin, host);
}

const origin = config ? serverOrigin(config) : null;
if (config && origin) {
  if (document.body) mount(config, origin);
  else document.addEventListener('DOMContentLoaded', () => mount(config, origin), { once: true });
}
