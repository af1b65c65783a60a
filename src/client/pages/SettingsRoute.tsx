import { can, type Role } from '@/shared/access';
import { ChargeCeilingsTab } from '@/features/claims/ui/ChargeCeilingsTab';
import { ClearinghouseTab } from '@/features/clearinghouse/ui/ClearinghouseTab';
import { PayersTab } from '@/features/payers/ui/PayersTab';
import { ProvidersTab } from '@/features/providers/ui/ProvidersTab';
import SettingsPage from '@/features/settings/ui/SettingsPage';
import { UsersTab } from '@/features/users/ui/UsersTab';

/**
 * '/settings': the settings feature's tabs with the users feature's Users tab and the Providers, Payers, Charge
 * ceilings and Clearinghouse tabs (admins only) assembled in.
 */
export default function SettingsRoute({ role }: { role: Role }) {
  // The same permissions the tabs' routes declare (src/shared/access.ts), so no tab is built for a role
  // whose every request would be refused.
  const maintains = can(role, 'system:admin');
  return (
    <SettingsPage
      role={role}
      usersTab={can(role, 'users:manage') ? <UsersTab /> : null}
      providersTab={maintains ? <ProvidersTab /> : null}
      payersTab={maintains ? <PayersTab /> : null}
      chargesTab={maintains ? <ChargeCeilingsTab /> : null}
      clearinghouseTab={can(role, 'clearinghouse:manage') ? <ClearinghouseTab /> : null}
    />
  );
}
