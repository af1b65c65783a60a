import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@/client/components/ui/button';
import { authKeys, useLogout } from '@/features/auth/ui/auth.api';
import { SecurityTab } from '@/features/settings/ui/SecurityTab';

/**
 * After a sign-in with a temporary password the server answers nothing else until a new one is set, so
 * this is the only screen: the Security form, then the session is read again and the app opens.
 */
export function PasswordChangeRequiredPage() {
  const queryClient = useQueryClient();
  const logout = useLogout();
  return (
    <main className="mx-auto grid max-w-xl gap-4 p-8">
      <h1 className="text-2xl font-semibold">Set a new password</h1>
      <p className="text-sm text-muted-foreground">
        You signed in with a temporary password. Choose your own before you continue.
      </p>
      <SecurityTab onChanged={() => void queryClient.invalidateQueries({ queryKey: authKeys.session })} />
      <div>
        <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
          Logout
        </Button>
      </div>
    </main>
  );
}
