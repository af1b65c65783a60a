import type { ReactNode } from 'react';
import { can, type Permission, type Role } from '@/shared/access';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/client/components/ui/tabs';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { DisplayTab } from './DisplayTab';
import { IntegrationsTab } from './IntegrationsTab';
import { NotificationsTab } from './NotificationsTab';
import { PracticeTab } from './PracticeTab';
import { SecurityTab } from './SecurityTab';

const TAB_LABELS = {
  display: 'Display',
  practice: 'Practice',
  users: 'Users',
  providers: 'Providers',
  payers: 'Payers',
  charges: 'Charge ceilings',
  clearinghouse: 'Clearinghouse',
  notifications: 'Notifications',
  integrations: 'Integrations',
  security: 'Security',
} as const;
type Tab = keyof typeof TAB_LABELS;

/**
 * The Settings tabs from the one policy: a tab shows when the role holds the permission behind it (a guest
 * sees Display and Notifications only, a patient Security too); Users shows to staff, enabled for admins;
 * Providers, Payers, Charge ceilings and Clearinghouse show to admins, who maintain them.
 */
const TAB_PERMISSION: Partial<Record<Tab, Permission>> = {
  practice: 'settings:practice',
  users: 'settings:practice',
  providers: 'system:admin',
  payers: 'system:admin',
  charges: 'system:admin',
  clearinghouse: 'clearinghouse:manage',
  integrations: 'settings:practice',
  security: 'account:password',
};

export function visibleTabs(role: Role): { tab: Tab; disabled: boolean }[] {
  return (Object.keys(TAB_LABELS) as Tab[])
    .filter((tab) => {
      const permission = TAB_PERMISSION[tab];
      return permission === undefined || can(role, permission);
    })
    .map((tab) => ({ tab, disabled: tab === 'users' && !can(role, 'users:manage') }));
}

/**
 * The Settings screen. The Users, Providers, Payers, Charge ceilings and Clearinghouse tabs belong to their features, so the client shell
 * passes them in (src/client/pages/SettingsRoute.tsx); a feature's screens never import another feature's
 * screens.
 */
export default function SettingsPage({
  role,
  usersTab,
  providersTab,
  payersTab,
  chargesTab,
  clearinghouseTab,
}: {
  role: Role;
  usersTab?: ReactNode;
  providersTab?: ReactNode;
  payersTab?: ReactNode;
  chargesTab?: ReactNode;
  clearinghouseTab?: ReactNode;
}) {
  const tabs = visibleTabs(role);
  const content: Record<Tab, ReactNode> = {
    display: <DisplayTab />,
    practice: <PracticeTab role={role} />,
    users: usersTab ?? null,
    providers: providersTab ?? null,
    payers: payersTab ?? null,
    charges: chargesTab ?? null,
    clearinghouse: clearinghouseTab ?? null,
    notifications: <NotificationsTab />,
    integrations: <IntegrationsTab />,
    security: <SecurityTab />,
  };
  return (
    <section>
      <PageHeader title="Settings" />
      <Tabs defaultValue="display">
        <TabsList>
          {tabs.map(({ tab, disabled }) => (
            <TabsTrigger key={tab} value={tab} disabled={disabled}>
              {TAB_LABELS[tab]}
            </TabsTrigger>
          ))}
        </TabsList>
        {tabs.map(({ tab, disabled }) => (
          <TabsContent key={tab} value={tab} className="mt-4">
            {disabled ? null : content[tab]}
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}
