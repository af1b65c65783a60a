import type { Role } from '@/shared/access';
import SettingsPage from '@/features/settings/ui/SettingsPage';
import { UsersTab } from '@/features/users/ui/UsersTab';

/** '/settings': the settings feature's tabs with the users feature's Users tab (admins only) assembled in. */
export default function SettingsRoute({ role }: { role: Role }) {
  return <SettingsPage role={role} usersTab={role === 'admin' ? <UsersTab /> : null} />;
}
