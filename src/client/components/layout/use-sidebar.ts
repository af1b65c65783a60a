import { createContext, useCallback, useContext, useEffect, useState } from 'react';

export const SIDEBAR_COOKIE = 'sidebar_state';
const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7; // 7 days
export const MOBILE_BREAKPOINT = 768;

export function readSidebarCookie(): boolean {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${SIDEBAR_COOKIE}=`));
  return match ? match.split('=')[1] !== 'false' : true;
}

export function useIsMobile(): boolean {
  const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;
  const [mobile, setMobile] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mql = window.matchMedia(query);
    const onChange = () => setMobile(mql.matches);
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, [query]);
  return mobile;
}

export interface SidebarState {
  /** Desktop: expanded (true) or icon mode (false). */
  open: boolean;
  /** Mobile: the slide-in sheet is showing. */
  openMobile: boolean;
  isMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  toggle: () => void;
}

export const SidebarContext = createContext<SidebarState | null>(null);

export function useSidebar(): SidebarState {
  const ctx = useContext(SidebarContext);
  if (!ctx) throw new Error('useSidebar must be used inside the app shell');
  return ctx;
}

/** Sidebar state kept in a cookie for 7 days, toggled with Ctrl/Cmd+B. */
export function useSidebarState(): SidebarState {
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(readSidebarCookie);
  const [openMobile, setOpenMobile] = useState(false);

  const toggle = useCallback(() => {
    if (isMobile) {
      setOpenMobile((v) => !v);
      return;
    }
    setOpen((v) => {
      document.cookie = `${SIDEBAR_COOKIE}=${String(!v)}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=strict`;
      return !v;
    });
  }, [isMobile]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'b' && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  return { open, openMobile, isMobile, setOpenMobile, toggle };
}
