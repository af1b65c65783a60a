import type { Role } from '@/shared/access';
import { ChargeCeilingsTab } from '@/features/claims/ui/ChargeCeilingsTab';
import { PayersTab } from '@/features/payers/ui/PayersTab';
import { ProvidersTab } from '@/features/providers/ui/ProvidersTab';
import SettingsPage from '@/features/settings/ui/SettingsPage';
import { UsersTab } from '@/features/users/ui/UsersTab';

/**
 * '/settings': the settings feature's tabs with the users feature's Users tab and the Providers, Payers and
 * Charge ceilings tabs (admins only) assembled in.
 */
export default function SettingsRoute({ role }: { role: Role }) {
  const admin = role === 'admin';
  return (
    <SettingsPage
      role={role}
      usersTab={admin ? <UsersTab /> : null}
      providersTab={admin ? <ProvidersTab /> : null}
      payersTab={admin ? <PayersTab /> : null}
      chargesTab={admin ? <ChargeCeilingsTab /> : null}
    />
  );
}
