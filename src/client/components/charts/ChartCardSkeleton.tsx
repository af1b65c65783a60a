import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Skeleton } from '@/client/components/ui/skeleton';

/** The height every chart of a ChartCard is drawn at unless told otherwise. */
export const CHART_HEIGHT = 280;

/**
 * A chart card while its numbers or its code load: the same title, description and height as the
 * ChartCard that replaces it, so nothing moves when the chart arrives. It does not import Chart.js, so a
 * screen can show it before the chart chunk has loaded.
 */
export function ChartCardSkeleton({
  title,
  description,
  height = CHART_HEIGHT,
}: {
  title: string;
  description?: string;
  height?: number;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>
        <Skeleton className="w-full" style={{ height }} aria-label={`Loading ${title}`} />
      </CardContent>
    </Card>
  );
}
