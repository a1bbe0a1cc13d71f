/**
 * The widget's stylesheet, applied inside its shadow root only: the host page's CSS does not reach in
 * (`:host { all: initial }` also stops inherited fonts and colours) and these rules do not reach out.
 * `--accent` / `--on-accent` are the embed's colour and a readable text colour on it.
 */
export const WIDGET_CSS = `
:host { all: initial; }
.root {
  position: fixed; bottom: 20px; right: 20px; z-index: 2147483000;
  display: flex; flex-direction: column; align-items: flex-end; gap: 12px;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #1a1b1e; -webkit-font-smoothing: antialiased;
}
.root.left { right: auto; left: 20px; align-items: flex-start; }
*, *::before, *::after { box-sizing: border-box; }
button, textarea { font: inherit; color: inherit; }
.launcher {
  width: 56px; height: 56px; border-radius: 50%; border: 0; cursor: pointer;
  background: var(--accent); color: var(--on-accent);
  display: grid; place-items: center; box-shadow: 0 4px 16px rgba(0,0,0,.25);
  transition: transform .15s ease;
}
.launcher:hover { transform: scale(1.06); }
.launcher svg { width: 26px; height: 26px; }
:focus-visible { outline: 3px solid #1971c2; outline-offset: 2px; }
.panel {
  width: min(380px, calc(100vw - 40px)); height: min(560px, calc(100vh - 110px));
  background: #fff; border-radius: 14px; overflow: hidden;
  box-shadow: 0 10px 40px rgba(0,0,0,.25); border: 1px solid rgba(0,0,0,.08);
  display: flex; flex-direction: column;
}
.panel[hidden] { display: none; }
.head {
  display: flex; align-items: center; gap: 8px; padding: 12px 12px 12px 16px;
  background: var(--accent); color: var(--on-accent);
}
.head h2 { flex: 1; margin: 0; font-size: 16px; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.icon-button {
  width: 36px; height: 36px; border-radius: 8px; border: 0; background: transparent; cursor: pointer;
  display: grid; place-items: center; color: inherit;
}
.icon-button:hover { background: rgba(127,127,127,.2); }
.icon-button svg { width: 20px; height: 20px; }
.log { flex: 1; overflow-y: auto; padding: 16px; display: flex; flex-direction: column; gap: 10px; background: #f8f9fa; }
.msg {
  max-width: 85%; padding: 8px 12px; border-radius: 12px; overflow-wrap: anywhere;
  background: #fff; border: 1px solid #e9ecef; align-self: flex-start;
}
.msg.user { align-self: flex-end; background: var(--accent); color: var(--on-accent); border-color: transparent; white-space: pre-wrap; }
.msg.error { background: #fff5f5; border-color: #ffc9c9; color: #c92a2a; }
.msg p, .msg ul, .msg ol, .msg pre { margin: 0 0 6px; }
.msg > :last-child { margin-bottom: 0; }
.msg ul, .msg ol { padding-left: 20px; }
.msg code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: rgba(127,127,127,.15); padding: 1px 4px; border-radius: 4px; }
.msg pre { background: #1a1b1e; color: #f1f3f5; padding: 8px 10px; border-radius: 8px; overflow-x: auto; }
.msg pre code { background: none; padding: 0; color: inherit; }
.msg a { color: #1864ab; }
.msg .sources { margin-top: 6px; font-size: 12px; display: flex; flex-wrap: wrap; gap: 4px 8px; }
.msg.user a { color: inherit; }
.typing { display: inline-flex; gap: 4px; padding: 4px 0; }
.typing span { width: 6px; height: 6px; border-radius: 50%; background: #adb5bd; animation: blink 1.2s infinite both; }
.typing span:nth-child(2) { animation-delay: .2s; }
.typing span:nth-child(3) { animation-delay: .4s; }
@keyframes blink { 0%, 80%, 100% { opacity: .3; } 40% { opacity: 1; } }
.alert { margin: 0; padding: 8px 16px; background: #fff5f5; color: #c92a2a; font-size: 14px; border-top: 1px solid #ffc9c9; }
.alert:empty { display: none; }
.form { display: flex; gap: 8px; align-items: flex-end; padding: 10px; border-top: 1px solid #e9ecef; background: #fff; }
.form textarea {
  flex: 1; resize: none; border: 1px solid #ced4da; border-radius: 10px; padding: 8px 10px;
  max-height: 120px; min-height: 40px; line-height: 1.4; background: #fff;
}
.form textarea:focus { border-color: var(--accent); outline: none; box-shadow: 0 0 0 2px rgba(25,113,194,.35); }
.send { background: var(--accent); color: var(--on-accent); border-radius: 10px; width: 40px; height: 40px; }
.send:hover { background: var(--accent); filter: brightness(1.08); }
.send:disabled { opacity: .5; cursor: default; }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
@media (prefers-reduced-motion: reduce) { .launcher, .typing span { transition: none; animation: none; } }
`;
