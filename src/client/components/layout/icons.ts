import {
  AlarmClock,
  BarChart3,
  CalendarDays,
  ClipboardCheck,
  FileText,
  Gauge,
  HeartPulse,
  LayoutDashboard,
  ListChecks,
  Receipt,
  ScrollText,
  Settings,
  Shield,
  ShieldCheck,
  Stethoscope,
  UserCircle,
  UserRound,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import type { Role, ScreenPath } from '@/shared/access';

export const SCREEN_ICONS: Record<ScreenPath, LucideIcon> = {
  '/home': LayoutDashboard,
  '/patient-portal': HeartPulse,
  '/patients': Users,
  '/appointments': CalendarDays,
  '/overdue-followups': AlarmClock,
  '/claims': FileText,
  '/kpis': Gauge,
  '/analytics': BarChart3,
  '/billing': Receipt,
  '/authorizations': ClipboardCheck,
  '/compliance': ShieldCheck,
  '/audit': ScrollText,
  '/rtm': ListChecks,
  '/settings': Settings,
};

/** SPEC 2.2: five roles have their own icon; any other role gets the default one. */
export function roleIcon(role: Role): LucideIcon {
  switch (role) {
    case 'doctor':
      return Stethoscope;
    case 'nurse_manager':
      return HeartPulse;
    case 'billing_admin':
      return Wallet;
    case 'patient':
      return UserRound;
    case 'admin':
      return Shield;
    default:
      return UserCircle;
  }
}
