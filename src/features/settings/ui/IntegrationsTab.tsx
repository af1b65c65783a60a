import { Badge } from '@/client/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Switch } from '@/client/components/ui/switch';
import { toast } from '@/client/components/ui/toast';
import { INTEGRATIONS } from '../settings.schema';
import { useIntegrations, useSetIntegration } from './settings.api';
import { SettingsSkeleton } from './SettingsSkeleton';

/** Each integration switches between Connected and Disconnected; saved for the practice. */
export function IntegrationsTab() {
  const { data, isLoading, isError } = useIntegrations();
  const setIntegration = useSetIntegration();
  if (isError) return <p className="text-destructive">The integrations could not be loaded.</p>;
  if (isLoading || !data) return <SettingsSkeleton label="integrations" />;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Integrations</CardTitle>
        <CardDescription>Services connected to the practice. Changes are saved at once.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {INTEGRATIONS.map(({ key, name, description }) => {
            const connected = data[key];
            return (
              <li key={key} className="flex items-center justify-between gap-4 py-3">
                <FormField id={`integration-${key}`} label={name} hint={description}>
                  {(control) => (
                    <Switch
                      {...control}
                      checked={connected}
                      disabled={setIntegration.isPending}
                      onCheckedChange={(checked) =>
                        setIntegration.mutate(
                          { key, connected: checked },
                          {
                            onSuccess: () =>
                              toast({
                                title: `${name} ${checked ? 'connected' : 'disconnected'}`,
                                description: `${name} is now ${checked ? 'Connected' : 'Disconnected'}.`,
                              }),
                            onError: () =>
                              toast({
                                title: 'Error',
                                description: `Failed to change ${name}.`,
                                variant: 'destructive',
                              }),
                          },
                        )
                      }
                    />
                  )}
                </FormField>
                <Badge variant={connected ? 'default' : 'outline'}>{connected ? 'Connected' : 'Disconnected'}</Badge>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
