import {
  AlarmClock,
  BarChart3,
  CalendarDays,
  ClipboardCheck,
  ClipboardList,
  FileText,
  Gauge,
  HandCoins,
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
  '/remittances': HandCoins,
  '/work-queue': ClipboardList,
  '/kpis': Gauge,
  '/analytics': BarChart3,
  '/billing': Receipt,
  '/authorizations': ClipboardCheck,
  '/compliance': ShieldCheck,
  '/audit': ScrollText,
  '/rtm': ListChecks,
  '/settings': Settings,
};

/** Five roles have their own icon; any other role (guest) gets the default one. */
export const ROLE_ICONS: Partial<Record<Role, LucideIcon>> = {
  doctor: Stethoscope,
  nurse_manager: HeartPulse,
  billing_admin: Wallet,
  patient: UserRound,
  admin: Shield,
};
export const DEFAULT_ROLE_ICON = UserCircle;
