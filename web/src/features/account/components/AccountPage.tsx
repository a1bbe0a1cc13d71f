import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader';
import '../i18n';
import { InvitationsSection } from './InvitationsSection';
import { NameSection } from './NameSection';
import { PasswordSection } from './PasswordSection';
import { SessionsSection } from './SessionsSection';

function Section({
  title,
  intro,
  testId,
  children,
}: {
  title: string;
  intro?: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title} data-testid={testId}>
      <Stack gap="md">
        <div>
          <Title order={3}>{title}</Title>
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * /account: the signed-in person's own names, password, sessions and invitations, the same in every vendor
 * (docs/adr/0023-identity-across-tenants.md).
 */
export function AccountPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader
        title={t('account.title')}
        subtitle={t('account.subtitle')}
        breadcrumbs={[{ label: t('account.title') }]}
      />
      <Stack gap="lg" data-testid="account-page">
        <Section title={t('account.invitations.title')} testId="account-invitations-section">
          <InvitationsSection />
        </Section>
        <Section title={t('account.name.title')} testId="account-name-section">
          <NameSection />
        </Section>
        <Section title={t('account.password.title')} testId="account-password-section">
          <PasswordSection />
        </Section>
        <Section
          title={t('account.sessions.title')}
          intro={t('account.sessions.intro')}
          testId="account-sessions-section"
        >
          <SessionsSection />
        </Section>
      </Stack>
    </>
  );
}
