import { Switch } from '@/client/components/ui/switch';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { FONT_SIZES, type FontSize } from '../settings.display';
import { fontSizeSchema } from '../settings.schema';
import { useUpdateSettings, useUserSettings } from './settings.api';
import { SettingsSkeleton } from './SettingsSkeleton';

const FONT_SIZE_LABELS: Record<FontSize, string> = {
  small: 'Small (14px)',
  medium: 'Medium (16px)',
  large: 'Large (18px)',
};

/** High contrast and font size apply at once and are then synced to the server. */
export function DisplayTab() {
  const { data, isLoading } = useUserSettings(true);
  const update = useUpdateSettings();
  if (isLoading || !data) return <SettingsSkeleton label="display settings" />;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Display</CardTitle>
        <CardDescription>Changes apply at once and follow you to any device you sign in on.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <FormField id="high-contrast" label="High contrast">
          {(control) => (
            <Switch
              {...control}
              checked={data.highContrast}
              onCheckedChange={(checked) => update.mutate({ highContrast: checked })}
            />
          )}
        </FormField>
        <FormField id="font-size" label="Font size">
          {(control) => (
            <Select
              value={data.fontSize}
              onValueChange={(value) => update.mutate({ fontSize: fontSizeSchema.parse(value) })}
            >
              <SelectTrigger {...control} className="w-48" aria-label="Font size">
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
          )}
        </FormField>
      </CardContent>
    </Card>
  );
}
