import { ChartCardSkeleton } from '@/client/components/charts/ChartCardSkeleton';

/** The claims screen's three charts, named once for the charts and for their placeholders. */
export const CLAIMS_CHARTS = {
  byPayer: { title: 'Denials by Payer', description: 'Claims denied at first adjudication' },
  reasons: { title: 'Top Denial Reasons', description: 'The 5 commonest denial codes' },
  trend: { title: 'Weekly Claims Trend', description: 'Claims by service week (Sunday to Saturday), last 8 weeks' },
} as const;

/** The charts' row while Chart.js loads: the same cards, so the page does not move when they are drawn. */
export function ClaimsChartsSkeleton() {
  return (
    <div className="mb-6 grid gap-4 lg:grid-cols-3">
      {Object.values(CLAIMS_CHARTS).map((chart) => (
        <ChartCardSkeleton key={chart.title} title={chart.title} description={chart.description} />
      ))}
    </div>
  );
}
