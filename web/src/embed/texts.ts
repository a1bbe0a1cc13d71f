/**
 * The widget's own words, in the console's six locales (the visitor's browser language picks one;
 * the embed's title and welcome text are the vendor's). Kept here, not in i18next: the widget loads
 * nothing but itself.
 */
import type { Locale } from '@llmor/contracts';

export interface WidgetTexts {
  open: string;
  close: string;
  title: string;
  message: string;
  placeholder: string;
  send: string;
  thinking: string;
  unavailable: string;
  failed: string;
  /** Above the links to the pages an answer's passages came from. */
  sources: string;
}

const en_US: WidgetTexts = {
  open: 'Open chat',
  close: 'Close chat',
  title: 'Chat',
  message: 'Message',
  placeholder: 'Type a message…',
  send: 'Send',
  thinking: 'Writing a reply…',
  unavailable: 'This chat is not available right now.',
  failed: 'The message could not be sent. Please try again.',
  sources: 'Sources:',
};

const de_DE: WidgetTexts = {
  open: 'Chat öffnen',
  close: 'Chat schließen',
  title: 'Chat',
  message: 'Nachricht',
  placeholder: 'Nachricht eingeben…',
  send: 'Senden',
  thinking: 'Antwort wird geschrieben…',
  unavailable: 'Dieser Chat ist gerade nicht verfügbar.',
  failed: 'Die Nachricht konnte nicht gesendet werden. Bitte erneut versuchen.',
  sources: 'Quellen:',
};

const de_CH: WidgetTexts = {
  ...de_DE,
  close: 'Chat schliessen',
};

const gsw_CH: WidgetTexts = {
  open: 'Chat ufmache',
  close: 'Chat zuemache',
  title: 'Chat',
  message: 'Nachricht',
  placeholder: 'Nachricht schriibe…',
  send: 'Schicke',
  thinking: 'Antwort wird gschribe…',
  unavailable: 'Dä Chat isch grad nöd verfüegbar.',
  failed: 'D Nachricht het nöd chönne gschickt wärde. Bitte nomal probiere.',
  sources: 'Quelle:',
};

const fr_FR: WidgetTexts = {
  open: 'Ouvrir le chat',
  close: 'Fermer le chat',
  title: 'Chat',
  message: 'Message',
  placeholder: 'Écrivez un message…',
  send: 'Envoyer',
  thinking: 'Rédaction de la réponse…',
  unavailable: "Ce chat n'est pas disponible pour le moment.",
  failed: "Le message n'a pas pu être envoyé. Veuillez réessayer.",
  sources: 'Sources :',
};

const it_IT: WidgetTexts = {
  open: 'Apri la chat',
  close: 'Chiudi la chat',
  title: 'Chat',
  message: 'Messaggio',
  placeholder: 'Scrivi un messaggio…',
  send: 'Invia',
  thinking: 'Sto scrivendo la risposta…',
  unavailable: 'Questa chat non è disponibile al momento.',
  failed: 'Impossibile inviare il messaggio. Riprova.',
  sources: 'Fonti:',
};

export const WIDGET_TEXTS: Record<Locale, WidgetTexts> = { en_US, de_DE, de_CH, gsw_CH, fr_FR, it_IT };

/** The console locale closest to a browser language tag (`de-CH` → de_CH, `fr-BE` → fr_FR, `ja` → en_US). */
export function localeOf(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const [language = '', region = ''] = tag.toLowerCase().split('-');
    if (language === 'gsw') return 'gsw_CH';
    if (language === 'de') return region === 'ch' ? 'de_CH' : 'de_DE';
    if (language === 'fr') return 'fr_FR';
    if (language === 'it') return 'it_IT';
    if (language === 'en') return 'en_US';
  }
  return 'en_US';
}
