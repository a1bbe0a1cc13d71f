import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation } from 'react-router';
import { useAppState } from '../lib/appState';
import { RedirectIfAuthenticated, RequireAuth, RequireVendor } from './guards';
import { InitGate } from './InitGate';
import { PageLoader } from './shell/PageLoader';

// Each route module is its own chunk (React.lazy on a named export). So is the signed-in shell: the
// sign-in page does not load the app shell and its navigation.
const loadAppLayout = () => import('./shell/AppLayout');
const AppLayout = lazy(() => loadAppLayout().then((m) => ({ default: m.AppLayout })));
const LoginRoute = lazy(() => import('./routes/LoginRoute').then((m) => ({ default: m.LoginRoute })));
const DashboardRoute = lazy(() =>
  import('./routes/DashboardRoute').then((m) => ({ default: m.DashboardRoute })),
);
const NotFoundRoute = lazy(() =>
  import('./routes/NotFoundRoute').then((m) => ({ default: m.NotFoundRoute })),
);
const apps = () => import('./routes/apps');
const AppsRoute = lazy(() => apps().then((m) => ({ default: m.AppsRoute })));
const AppConversationsRoute = lazy(() => apps().then((m) => ({ default: m.AppConversationsRoute })));
const AppSettingsRoute = lazy(() => apps().then((m) => ({ default: m.AppSettingsRoute })));
const models = () => import('./routes/models');
const ModelsRoute = lazy(() => models().then((m) => ({ default: m.ModelsRoute })));
const ModelRoute = lazy(() => models().then((m) => ({ default: m.ModelRoute })));
const functions = () => import('./routes/functions');
const FunctionsRoute = lazy(() => functions().then((m) => ({ default: m.FunctionsRoute })));
const FunctionRoute = lazy(() => functions().then((m) => ({ default: m.FunctionRoute })));
const SettingsRoute = lazy(() => import('./routes/settings').then((m) => ({ default: m.SettingsRoute })));
const AccountRoute = lazy(() => import('./routes/AccountRoute').then((m) => ({ default: m.AccountRoute })));
const LinkRoute = lazy(() => import('./routes/LinkRoute').then((m) => ({ default: m.LinkRoute })));
const ApiReferenceRoute = lazy(() =>
  import('./routes/ApiReferenceRoute').then((m) => ({ default: m.ApiReferenceRoute })),
);
const admin = () => import('./routes/admin');
const AdminVendorsRoute = lazy(() => admin().then((m) => ({ default: m.AdminVendorsRoute })));
const AdminVendorRoute = lazy(() => admin().then((m) => ({ default: m.AdminVendorRoute })));
const AdminQueueRoute = lazy(() => admin().then((m) => ({ default: m.AdminQueueRoute })));
const AdminPlansRoute = lazy(() => admin().then((m) => ({ default: m.AdminPlansRoute })));

function Root() {
  // The shell starts loading once the session is known to be signed in, alongside the vendors' request.
  const { authenticated } = useAppState();
  useEffect(() => {
    // A failure here is the lazy route's to report when it renders.
    if (authenticated) loadAppLayout().catch(() => undefined);
  }, [authenticated]);
  return (
    <InitGate>
      <Outlet />
    </InitGate>
  );
}

function SuspenseShell({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader />}>{children}</Suspense>;
}

function LoginShell() {
  return (
    <SuspenseShell>
      <LoginRoute />
    </SuspenseShell>
  );
}

/** A default-child redirect that keeps the query string (e.g. `/functions/+?app_id=3` → `…/details?app_id=3`). */
function RedirectKeepingQuery({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={{ pathname: to, search }} replace />;
}
const redirect = (to: string) => <RedirectKeepingQuery to={to} />;

/** Every route of docs/reference/console.md, "Screens and routes". Unbuilt screens render the shared placeholder. */
export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      {
        element: <RedirectIfAuthenticated />,
        children: [{ path: 'login', element: <LoginShell /> }],
      },
      // Invitation and password-reset links work signed in or not.
      {
        path: 'invitation/:token',
        element: (
          <SuspenseShell>
            <LinkRoute purpose="invite" />
          </SuspenseShell>
        ),
      },
      {
        path: 'reset-password/:token',
        element: (
          <SuspenseShell>
            <LinkRoute purpose="reset" />
          </SuspenseShell>
        ),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: (
              <SuspenseShell>
                <AppLayout />
              </SuspenseShell>
            ),
            children: [
              { index: true, element: <DashboardRoute /> },
              { path: 'docs/api', element: <ApiReferenceRoute /> },
              // The person's own account: no vendor needed (an invitation may be their way into one).
              { path: 'account', element: <AccountRoute /> },
              {
                element: <RequireVendor />,
                children: [
                  { path: 'apps', element: <AppsRoute /> },
                  { path: 'apps/:id', element: redirect('chat') },
                  { path: 'apps/:id/chat/:token?', element: <AppConversationsRoute /> },
                  {
                    path: 'apps/:id/settings',
                    children: [
                      { index: true, element: redirect('details') },
                      { path: 'details', element: <AppSettingsRoute section="details" /> },
                      { path: 'parameters', element: <AppSettingsRoute section="parameters" /> },
                      { path: 'functions', element: <AppSettingsRoute section="functions" /> },
                      { path: 'usage', element: <AppSettingsRoute section="usage" /> },
                      { path: 'datastores', element: <AppSettingsRoute section="datastores" /> },
                      { path: 'clients', element: <AppSettingsRoute section="clients" /> },
                      { path: 'clients/:clientId', element: <AppSettingsRoute section="client" /> },
                      { path: 'embeds', element: <AppSettingsRoute section="embeds" /> },
                      { path: 'embeds/:embedId', element: <AppSettingsRoute section="embed" /> },
                      { path: 'integrations/slack', element: <AppSettingsRoute section="slack" /> },
                    ],
                  },
                  { path: 'models', element: <ModelsRoute /> },
                  {
                    path: 'models/:id',
                    children: [
                      { index: true, element: redirect('details') },
                      { path: 'details', element: <ModelRoute section="details" /> },
                      { path: 'usage', element: <ModelRoute section="usage" /> },
                      { path: 'configuration', element: <ModelRoute section="configuration" /> },
                    ],
                  },
                  { path: 'functions', element: <FunctionsRoute /> },
                  {
                    path: 'functions/:id',
                    children: [
                      { index: true, element: redirect('details') },
                      { path: 'details', element: <FunctionRoute section="details" /> },
                      { path: 'editor', element: <FunctionRoute section="editor" /> },
                      { path: 'runs', element: <FunctionRoute section="runs" /> },
                    ],
                  },
                  {
                    path: 'settings',
                    children: [
                      { index: true, element: redirect('vendor') },
                      { path: 'vendor', element: <SettingsRoute section="vendor" /> },
                      {
                        path: 'billing',
                        children: [
                          { index: true, element: redirect('address') },
                          { path: 'address', element: <SettingsRoute section="address" /> },
                          { path: 'payment-methods', element: <SettingsRoute section="paymentMethods" /> },
                          { path: 'invoices', element: <SettingsRoute section="invoices" /> },
                          { path: 'usage', element: <SettingsRoute section="usage" /> },
                          { path: 'limits', element: <SettingsRoute section="limits" /> },
                        ],
                      },
                      { path: 'subscription', element: <SettingsRoute section="subscription" /> },
                      { path: 'users', element: <SettingsRoute section="users" /> },
                      { path: 'users/:id', element: <SettingsRoute section="user" /> },
                      {
                        path: 'integrations',
                        children: [
                          { index: true, element: redirect('slack') },
                          { path: 'slack', element: <SettingsRoute section="slack" /> },
                          { path: 'smtp', element: <SettingsRoute section="smtp" /> },
                        ],
                      },
                    ],
                  },
                ],
              },
              {
                path: 'admin',
                children: [
                  { index: true, element: redirect('vendors') },
                  { path: 'vendors', element: <AdminVendorsRoute /> },
                  {
                    path: 'vendors/:id',
                    children: [
                      { index: true, element: redirect('details') },
                      { path: 'details', element: <AdminVendorRoute section="details" /> },
                      { path: 'subscriptions', element: <AdminVendorRoute section="subscriptions" /> },
                    ],
                  },
                  { path: 'plans', element: <AdminPlansRoute /> },
                  { path: 'queue', element: <AdminQueueRoute /> },
                ],
              },
              { path: '*', element: <NotFoundRoute /> },
            ],
          },
        ],
      },
    ],
  },
]);
