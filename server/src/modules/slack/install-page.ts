/**
 * The page a person lands on after Slack's OAuth screen: whether the bot was installed, and a link back
 * to the app's Slack page in the console. Plain HTML, no script (the CSP allows none inline).
 */
import type { InstallOutcome } from './service';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The console page of the app's Slack integration. */
const consoleSlackPage = (base: string, appId: number) => `${base}/apps/${appId}/settings/integrations/slack`;

export function installPage(outcome: InstallOutcome): string {
  const title = outcome.ok ? 'Slack bot installed' : 'Slack installation failed';
  const text = outcome.ok
    ? `${outcome.botName} is installed in the workspace ${outcome.teamDomain}. Mention it in a channel or send it a direct message, and the app answers in the thread.`
    : outcome.message;
  const back =
    outcome.appId !== undefined && outcome.consoleBase !== undefined
      ? `<p><a href="${escapeHtml(consoleSlackPage(outcome.consoleBase, outcome.appId))}" data-testid="slack-install-back">Back to the console</a></p>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · llmor</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}h1{font-size:1.5rem}.ok{color:#2b8a3e}.failed{color:#c92a2a}</style>
</head>
<body>
<h1 class="${outcome.ok ? 'ok' : 'failed'}" data-testid="slack-install-title">${escapeHtml(title)}</h1>
<p data-testid="slack-install-message">${escapeHtml(text)}</p>
${back}
</body>
</html>
`;
}
