import type { AppConfig, Locale, User, Vendor } from '@llmor/contracts';
import { createContext, useContext } from 'react';

type InitPhase = 'idle' | 'creating-session' | 'initializing' | 'authenticating' | 'complete' | 'error';

/** What the shell knows after initialisation (docs/reference/rules.md "Initialisation state", current-user response). */
export interface AppState {
  phase: InitPhase;
  error: string | null;
  /** The server said the session is invalid; the page reloads shortly. */
  sessionInvalid: boolean;
  config: AppConfig | null;
  user: User | null;
  authenticated: boolean;
  vendors: Vendor[];
  vendor: Vendor | null;
  locale: Locale;
}

interface AppActions {
  /** Clears the error and runs initialisation again. */
  retry(): void;
  /** Stores the vendor key and reloads the page. */
  selectVendor(vendor: Vendor): void;
  /** Signs out, clears the session and reloads the page. */
  signOut(): Promise<void>;
  /** Stores the locale and reloads the page. */
  changeLocale(locale: Locale): void;
  /** The signed-in person changed (their names, on the account page). */
  updateUser(user: User): void;
  /** Fetches the person's vendors again (after accepting an invitation), keeping the selected one. */
  reloadVendors(): Promise<void>;
}

export type AppContextValue = AppState & AppActions;

export const AppContext = createContext<AppContextValue | null>(null);

export function useAppState(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useAppState must be used inside <AppStateProvider>');
  return value;
}

/** The current vendor, or null when none is selected. */
export function useCurrentVendor(): Vendor | null {
  return useAppState().vendor;
}
