import * as DialogPrimitive from '@radix-ui/react-dialog';
import { SignInPage } from './SignInPage';

export const SESSION_EXPIRED_MESSAGE = 'Your session expired — sign in again';

/**
 * Covers the whole app (opaque, so no PHI stays on an unattended screen) while the screens underneath stay
 * mounted with whatever was typed. It cannot be dismissed: signing in again is the only way back.
 */
export function SessionExpiredDialog({ email }: { email: string }) {
  return (
    <DialogPrimitive.Root open>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-0 z-[60] overflow-y-auto bg-background focus:outline-none"
          onEscapeKeyDown={(event) => event.preventDefault()}
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
        >
          <SignInPage
            initialEmail={email}
            notice={
              <DialogPrimitive.Title
                role="alert"
                className="rounded-md border border-border bg-muted p-3 text-center font-medium"
              >
                {SESSION_EXPIRED_MESSAGE}
              </DialogPrimitive.Title>
            }
          />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
