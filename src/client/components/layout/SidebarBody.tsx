import { NavLink } from 'react-router';
import { HeartPulse } from 'lucide-react';
import { NAV_GROUPS, SCREENS, canOpen, roleLabel, type Role } from '@/shared/access';
import { cn } from '@/client/lib/cn';
import { SCREEN_ICONS } from './icons';

/** The sidebar's content: the same on desktop (aside) and on small screens (a sheet). */
export function SidebarBody({
  role,
  iconOnly,
  onNavigate,
}: {
  role: Role;
  iconOnly: boolean;
  onNavigate?: () => void;
}) {
  return (
    <div className="flex h-full flex-col">
      <div className={cn('flex items-center gap-2 border-b px-3 py-4', iconOnly && 'justify-center px-0')}>
        <HeartPulse className="size-6 shrink-0 text-primary" aria-hidden="true" />
        {!iconOnly && (
          <div className="min-w-0">
            <p className="truncate font-semibold">Healthcare RCM</p>
            <p className="truncate text-xs text-muted-foreground capitalize">{roleLabel(role)} Portal</p>
          </div>
        )}
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto py-2">
        {NAV_GROUPS.map((group) => {
          const entries = SCREENS.filter((s) => s.group === group && canOpen(role, s.path));
          if (entries.length === 0) return null;
          return (
            <div key={group} className="px-2 py-2">
              {!iconOnly && <h2 className="px-2 pb-1 text-xs font-medium text-muted-foreground">{group}</h2>}
              <ul className="space-y-0.5">
                {entries.map((screen) => {
                  const Icon = SCREEN_ICONS[screen.path];
                  return (
                    <li key={screen.path}>
                      <NavLink
                        to={screen.path}
                        onClick={onNavigate}
                        title={iconOnly ? screen.label : undefined}
                        aria-label={iconOnly ? screen.label : undefined}
                        className={({ isActive }) =>
                          cn(
                            'flex items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                            isActive && 'bg-accent font-medium',
                            iconOnly && 'justify-center',
                          )
                        }
                      >
                        <Icon className="size-4 shrink-0" aria-hidden="true" />
                        {!iconOnly && <span>{screen.label}</span>}
                      </NavLink>
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
      </nav>
      {!iconOnly && <p className="border-t px-3 py-3 text-xs text-muted-foreground">HIPAA Compliant Dashboard</p>}
    </div>
  );
}
