import type { Role } from '@/shared/access';
import { Sheet, SheetContent } from '@/client/components/ui/sheet';
import { SidebarBody } from './SidebarBody';
import { useSidebar } from './use-sidebar';

/** Below 768 px the sidebar is a slide-in sheet (loaded only on small screens). */
export default function MobileSidebar({ role }: { role: Role }) {
  const sidebar = useSidebar();
  return (
    <Sheet open={sidebar.openMobile} onOpenChange={sidebar.setOpenMobile}>
      <SheetContent title="Navigation" className="w-[18rem] p-0">
        <SidebarBody role={role} iconOnly={false} onNavigate={() => sidebar.setOpenMobile(false)} />
      </SheetContent>
    </Sheet>
  );
}
