import type { Role } from '@/shared/access';
import { Label } from '@/client/components/ui/label';
import { Switch } from '@/client/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/client/components/ui/tabs';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { FONT_SIZES, fontSizeSchema, type FontSize } from '../settings.schema';
import { useUpdateSettings, useUserSettings } from './settings.api';

const TAB_LABELS = {
  display: 'Display',
  practice: 'Practice',
  users: 'Users',
  notifications: 'Notifications',
  integrations: 'Integrations',
  security: 'Security',
} as const;
type Tab = keyof typeof TAB_LABELS;

const FONT_SIZE_LABELS: Record<FontSize, string> = {
  small: 'Small (14px)',
  medium: 'Medium (16px)',
  large: 'Large (18px)',
};

/** SPEC 2.16: patient and guest see Display and Notifications only; Users is disabled for non-admins. */
export function visibleTabs(role: Role): { tab: Tab; disabled: boolean }[] {
  const limited = role === 'patient' || role === 'guest';
  return (Object.keys(TAB_LABELS) as Tab[])
    .filter((tab) => !limited || tab === 'display' || tab === 'notifications')
    .map((tab) => ({ tab, disabled: tab === 'users' && role !== 'admin' }));
}

function DisplaySettings() {
  const { data, isLoading } = useUserSettings(true);
  const update = useUpdateSettings();
  if (isLoading || !data) return <p className="text-muted-foreground">Loading settings…</p>;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Display</CardTitle>
        <CardDescription>Changes apply at once and follow you to any device you sign in on.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="flex items-center justify-between gap-4">
          <Label htmlFor="high-contrast">High contrast</Label>
          <Switch
            id="high-contrast"
            checked={data.highContrast}
            onCheckedChange={(checked) => update.mutate({ highContrast: checked })}
          />
        </div>
        <div className="flex items-center justify-between gap-4">
          <Label htmlFor="font-size">Font size</Label>
          <Select
            value={data.fontSize}
            onValueChange={(value) => update.mutate({ fontSize: fontSizeSchema.parse(value) })}
          >
            <SelectTrigger id="font-size" className="w-48" aria-label="Font size">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {FONT_SIZES.map((size) => (
                <SelectItem key={size} value={size}>
                  {FONT_SIZE_LABELS[size]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </CardContent>
    </Card>
  );
}

export default function SettingsPage({ role }: { role: Role }) {
  const tabs = visibleTabs(role);
  return (
    <section>
      <PageHeader title="Settings" />
      <Tabs defaultValue="display">
        <TabsList>
          {tabs.map(({ tab, disabled }) => (
            <TabsTrigger key={tab} value={tab} disabled={disabled}>
              {TAB_LABELS[tab]}
            </TabsTrigger>
          ))}
        </TabsList>
        {tabs.map(({ tab }) => (
          <TabsContent key={tab} value={tab} className="mt-4">
            {tab === 'display' ? (
              <DisplaySettings />
            ) : (
              <p className="rounded-md border border-dashed p-6 text-muted-foreground">
                {TAB_LABELS[tab]} settings are coming soon.
              </p>
            )}
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}
