import { createElement } from 'react';
import type { Role } from '@/shared/access';
import { DEFAULT_ROLE_ICON, ROLE_ICONS } from './icons';

export function RoleIcon({ role, className }: { role: Role; className?: string }) {
  return createElement(ROLE_ICONS[role] ?? DEFAULT_ROLE_ICON, { className, 'aria-hidden': true });
}
