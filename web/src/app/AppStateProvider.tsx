import { INVALID_SESSION_RELOAD_MS, type Locale, type SessionUser } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createSession, SessionCreationError, sessionUserQueryOptions, signout } from '../features/session';
import { vendorsQueryOptions } from '../features/vendors';
import { changeLanguage, i18n } from '../i18n';
import { isInvalidSessionError } from '../lib/api/client';
import { describeError } from '../lib/api/error';
import { AppContext, type AppContextValue, type AppState } from '../lib/appState';
import { events } from '../lib/events';
import { pickLocale } from '../lib/locale';
import {
  clearSession,
  clearVendorKey,
  loadLocale,
  loadSession,
  loadVendorKey,
  reloadPage,
  saveLocale,
  saveSession,
  saveVendorKey,
} from '../lib/session';

let pendingSession: Promise<void> | null = null;

/** Creates and stores a session once, even when initialisation runs twice at the same time. */
function ensureSession(): Promise<void> {
  pendingSession ??= createSession()
    .then(saveSession)
    .finally(() => {
      pendingSession = null;
    });
  return pendingSession;
}

const initialState = (locale: Locale): AppState => ({
  phase: 'idle',
  error: null,
  sessionInvalid: false,
  config: null,
  user: null,
  authenticated: false,
  vendors: [],
  vendor: null,
  locale,
});

/**
 * Initialisation (docs/reference/rules.md): idle → creating-session (only when no valid session is stored) →
 * initializing (current user) → authenticating (the signed-in user's vendors) → complete | error.
 */
export function AppStateProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AppState>(() => initialState(pickLocale(i18n.language)));
  const runId = useRef(0);

  const initialize = useCallback(async () => {
    const id = ++runId.current;
    const update = (patch: Partial<AppState>) => {
      if (id === runId.current) setState((s) => ({ ...s, ...patch }));
    };
    update({ phase: 'idle', error: null });
    try {
      if (!loadSession()) {
        update({ phase: 'creating-session' });
        await ensureSession();
      }

      update({ phase: 'initializing' });
      let me: SessionUser;
      try {
        me = await queryClient.fetchQuery(sessionUserQueryOptions());
      } catch (error) {
        if (isInvalidSessionError(error)) {
          clearSession();
          clearVendorKey();
          update({ sessionInvalid: true });
          reloadPage(INVALID_SESSION_RELOAD_MS);
          return;
        }
        throw error;
      }

      // No stored choice yet: follow the app's default locale from the config.
      if (!loadLocale()) {
        const configured = pickLocale(me.app.default_locale);
        if (configured !== i18n.language) await changeLanguage(configured);
        update({ locale: configured });
      }

      if (!me.authenticated || !me.user) {
        update({
          phase: 'complete',
          config: me.app,
          user: null,
          authenticated: false,
          vendors: [],
          vendor: null,
        });
        return;
      }

      update({ phase: 'authenticating', config: me.app, user: me.user, authenticated: true });
      let vendors: AppState['vendors'];
      try {
        vendors = (await queryClient.fetchQuery({ ...vendorsQueryOptions(), staleTime: 0 })).data;
      } catch (error) {
        console.error('Could not fetch vendors', error);
        throw error;
      }

      const storedKey = loadVendorKey();
      const vendor = vendors.find((v) => v.key === storedKey) ?? null;
      if (!vendor) {
        if (storedKey) clearVendorKey();
        // No choice stored in this browser: land in a vendor of one's own (a superuser sees them all).
        const first = vendors.find((v) => v.member) ?? vendors[0];
        if (first) {
          // Selecting a vendor reloads the page; stay on the loading screen meanwhile.
          saveVendorKey(first.key);
          reloadPage();
          return;
        }
      }
      update({ phase: 'complete', vendors, vendor });
    } catch (error) {
      let reason: string;
      if (error instanceof SessionCreationError) {
        reason = i18n.t(`app.sessionErrors.${error.kind}`, { reason: error.reason });
      } else {
        reason = describeError(error).message ?? i18n.t('errors.unknownMessage');
      }
      update({ phase: 'error', error: reason });
    }
  }, [queryClient]);

  useEffect(() => {
    void initialize();
    return events.on('user-did-sign-in', () => {
      void initialize();
    });
  }, [initialize]);

  const reloadVendors = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: vendorsQueryOptions().queryKey });
    const vendors = (await queryClient.fetchQuery({ ...vendorsQueryOptions(), staleTime: 0 })).data;
    setState((s) => ({ ...s, vendors, vendor: vendors.find((v) => v.id === s.vendor?.id) ?? null }));
  }, [queryClient]);

  // Another tab (or an owner) may have renamed the vendor, changed the person's role or deactivated them:
  // coming back to the tab fetches the vendors again, so a lost vendor shows "No vendor selected" at once.
  const signedIn = state.phase === 'complete' && state.authenticated;
  useEffect(() => {
    if (!signedIn) return;
    const refresh = () => {
      if (document.visibilityState === 'visible') reloadVendors().catch(() => {});
    };
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [signedIn, reloadVendors]);

  const value = useMemo<AppContextValue>(
    () => ({
      ...state,
      retry: () => void initialize(),
      selectVendor: (vendor) => {
        saveVendorKey(vendor.key);
        reloadPage();
      },
      signOut: async () => {
        try {
          await signout();
        } catch (error) {
          console.warn('Sign-out call failed; clearing the session anyway', error);
        }
        clearSession();
        queryClient.clear();
        reloadPage();
      },
      changeLocale: (locale) => {
        saveLocale(locale);
        reloadPage();
      },
      updateUser: (user) => setState((s) => ({ ...s, user })),
      reloadVendors,
    }),
    [state, initialize, queryClient, reloadVendors],
  );

  return <AppContext.Provider value={value}>{children}</AppContext.Provider>;
}
