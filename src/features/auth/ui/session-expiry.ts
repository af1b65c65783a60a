import { useSyncExternalStore } from 'react';
import type { SessionUser } from '../auth.schema';

/**
 * Who was signed in when the server last answered 401 to one of their requests (idle or absolute timeout,
 * a session ended elsewhere). While set, the app stays mounted behind the sign-in overlay so that what the
 * person had typed and not yet sent survives signing in again as the same person.
 */
let expiredFor: SessionUser | null = null;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

export function noteSessionExpired(user: SessionUser) {
  if (expiredFor?.id === user.id) return;
  expiredFor = user;
  notify();
}

export function clearSessionExpired() {
  if (expiredFor === null) return;
  expiredFor = null;
  notify();
}

export function sessionExpiredFor(): SessionUser | null {
  return expiredFor;
}

export function useSessionExpiredFor(): SessionUser | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => expiredFor,
  );
}
