import { Tabs } from '@mantine/core';
import { IconBuildingStore, IconReceipt, IconStack2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** The admin area's sections (vendors, plans, queue) as tabs under the page header. */
export function AdminNav({ active }: { active: 'vendors' | 'plans' | 'queue' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Tabs value={active} onChange={(v) => v && navigate(`/admin/${v}`)} mb="md" data-testid="admin-nav">
      <Tabs.List>
        <Tabs.Tab
          value="vendors"
          leftSection={<IconBuildingStore size={16} />}
          data-testid="admin-nav-vendors"
        >
          {t('pages.admin.vendors')}
        </Tabs.Tab>
        <Tabs.Tab value="plans" leftSection={<IconReceipt size={16} />} data-testid="admin-nav-plans">
          {t('pages.admin.plans')}
        </Tabs.Tab>
        <Tabs.Tab value="queue" leftSection={<IconStack2 size={16} />} data-testid="admin-nav-queue">
          {t('pages.admin.queue')}
        </Tabs.Tab>
      </Tabs.List>
    </Tabs>
  );
}
