import type { ReactNode } from 'react';
import type { Role } from '@/shared/access';
import { AppSidebar } from './AppSidebar';
import { TopBar } from './TopBar';
import { SidebarContext, useSidebarState } from './use-sidebar';

export function AppShell({
  role,
  onLogout,
  loggingOut,
  children,
}: {
  role: Role;
  onLogout: () => void;
  loggingOut: boolean;
  children: ReactNode;
}) {
  const sidebar = useSidebarState();
  return (
    <SidebarContext value={sidebar}>
      <div className="flex min-h-screen bg-background text-foreground">
        <AppSidebar role={role} />
        <div className="flex min-w-0 flex-1 flex-col">
          <TopBar role={role} onLogout={onLogout} loggingOut={loggingOut} />
          <main id="main" className="flex-1 p-4 md:p-6">
            {children}
          </main>
        </div>
      </div>
    </SidebarContext>
  );
}
