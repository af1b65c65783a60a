import { LogOut, PanelLeft } from 'lucide-react';
import { canSearch, roleLabel, type Role } from '@/shared/access';
import { Button } from '@/client/components/ui/button';
import { GlobalSearch } from '@/features/search/ui/GlobalSearch';
import { RoleIcon } from './RoleIcon';
import { useSidebar } from './use-sidebar';

export function TopBar({ role, onLogout, loggingOut }: { role: Role; onLogout: () => void; loggingOut: boolean }) {
  const sidebar = useSidebar();
  return (
    <header className="sticky top-0 z-40 flex items-center gap-3 border-b bg-background px-4 py-2 no-print">
      <Button
        variant="ghost"
        size="icon"
        onClick={sidebar.toggle}
        aria-label="Toggle sidebar"
        title="Toggle sidebar (Ctrl+B)"
      >
        <PanelLeft className="size-5" aria-hidden="true" />
      </Button>
      {canSearch(role) && <GlobalSearch />}
      <div className="ml-auto flex items-center gap-3">
        <span className="flex items-center gap-2 text-sm font-medium capitalize" data-testid="current-role">
          <RoleIcon role={role} className="size-4" />
          {roleLabel(role)}
        </span>
        <Button variant="outline" size="sm" onClick={onLogout} disabled={loggingOut}>
          <LogOut className="size-4" aria-hidden="true" />
          Logout
        </Button>
      </div>
    </header>
  );
}
