import { lazy, Suspense } from 'react';
import type { Role } from '@/shared/access';
import { cn } from '@/client/lib/cn';
import { SidebarBody } from './SidebarBody';
import { useSidebar } from './use-sidebar';

// The sheet (Radix Dialog) is only for small screens: desktop sessions never download it.
const MobileSidebar = lazy(() => import('./MobileSidebar'));

/** Collapsible to icon mode on desktop; a slide-in sheet below 768 px. */
export function AppSidebar({ role }: { role: Role }) {
  const sidebar = useSidebar();
  if (sidebar.isMobile) {
    return (
      <Suspense fallback={null}>
        <MobileSidebar role={role} />
      </Suspense>
    );
  }
  return (
    <aside
      data-state={sidebar.open ? 'expanded' : 'collapsed'}
      className={cn(
        'sticky top-0 h-screen shrink-0 border-r bg-sidebar transition-[width] duration-200 no-print',
        sidebar.open ? 'w-[16rem]' : 'w-[3rem]',
      )}
    >
      <SidebarBody role={role} iconOnly={!sidebar.open} />
    </aside>
  );
}
