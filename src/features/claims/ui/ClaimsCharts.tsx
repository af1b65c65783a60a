import { Bar, Doughnut, Line } from 'react-chartjs-2';
import { ChartCard } from '@/client/components/charts/ChartCard';
import { CHART_COLOURS } from '@/client/components/charts/chart-setup';
import type { ClaimOverview } from '../claims.schema';
import { CLAIMS_CHARTS } from './ClaimsChartsSkeleton';

const [BLUE, ORANGE, GREEN, VERMILION, PURPLE] = CHART_COLOURS as [string, string, string, string, string];

/** One formatter for every label (Date#toLocaleDateString with options builds a new one per call). */
const WEEK_LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** 'Nov 15' for a week that starts on 2026-11-15 (dates are calendar days, read in UTC). */
export function weekLabel(weekStart: string): string {
  return WEEK_LABEL.format(new Date(`${weekStart}T00:00:00Z`));
}

const countAxis = { beginAtZero: true, ticks: { precision: 0 } };

// react-chartjs-2 gives its canvas role="img" with no name; ChartCard already names the picture and
// gives its data as a table, so each canvas is hidden from assistive technology (aria-hidden).

/** Denials by Payer (bar), Top Denial Reasons (doughnut, top 5), Weekly Claims Trend (line, 8 weeks). */
export function ClaimsCharts({ overview, loading }: { overview: ClaimOverview | undefined; loading: boolean }) {
  const byPayer = overview?.denialsByPayer ?? [];
  const reasons = overview?.topDenialReasons ?? [];
  const weeks = overview?.weeklyTrend ?? [];
  const noClaimsInWeeks = weeks.every((w) => w.claims === 0);
  return (
    <div className="mb-6 grid gap-4 lg:grid-cols-3">
      <ChartCard
        title={CLAIMS_CHARTS.byPayer.title}
        description={CLAIMS_CHARTS.byPayer.description}
        loading={loading}
        empty={byPayer.length === 0}
        emptyText="No denied claims match these filters"
        table={{
          columns: [{ header: 'Payer' }, { header: 'Denied claims', numeric: true }],
          rows: byPayer.map((p) => [p.payer, p.count]),
        }}
      >
        <Bar
          aria-hidden
          data={{
            labels: byPayer.map((p) => p.payer),
            datasets: [{ label: 'Denied claims', data: byPayer.map((p) => p.count), backgroundColor: BLUE }],
          }}
          options={{
            responsive: true,
            maintainAspectRatio: false,
            plugins: { legend: { display: false } },
            scales: { y: countAxis },
          }}
        />
      </ChartCard>

      <ChartCard
        title={CLAIMS_CHARTS.reasons.title}
        description={CLAIMS_CHARTS.reasons.description}
        loading={loading}
        empty={reasons.length === 0}
        emptyText="No denied claims match these filters"
        table={{
          columns: [{ header: 'Reason' }, { header: 'Description' }, { header: 'Denied claims', numeric: true }],
          rows: reasons.map((r) => [r.reason, r.description, r.count]),
        }}
      >
        <Doughnut
          aria-hidden
          data={{
            labels: reasons.map((r) => r.reason),
            datasets: [
              {
                label: 'Denied claims',
                data: reasons.map((r) => r.count),
                backgroundColor: [BLUE, ORANGE, GREEN, VERMILION, PURPLE],
              },
            ],
          }}
          options={{
            responsive: true,
            maintainAspectRatio: false,
            plugins: {
              legend: { position: 'bottom' },
              tooltip: {
                callbacks: {
                  label: (item) => {
                    const reason = reasons[item.dataIndex];
                    return reason ? `${reason.count} claims: ${reason.description}` : '';
                  },
                },
              },
            },
          }}
        />
      </ChartCard>

      <ChartCard
        title={CLAIMS_CHARTS.trend.title}
        description={CLAIMS_CHARTS.trend.description}
        loading={loading}
        empty={noClaimsInWeeks}
        emptyText="No claims in the last 8 weeks"
        table={{
          columns: [
            { header: 'Week of' },
            { header: 'Claims', numeric: true },
            { header: 'Paid', numeric: true },
            { header: 'Denied', numeric: true },
          ],
          rows: weeks.map((w) => [weekLabel(w.weekStart), w.claims, w.paid, w.denied]),
        }}
      >
        <Line
          aria-hidden
          data={{
            labels: weeks.map((w) => weekLabel(w.weekStart)),
            datasets: [
              { label: 'Claims', data: weeks.map((w) => w.claims), borderColor: BLUE, backgroundColor: BLUE },
              {
                label: 'Paid',
                data: weeks.map((w) => w.paid),
                borderColor: GREEN,
                backgroundColor: GREEN,
                borderDash: [6, 3],
              },
              {
                label: 'Denied',
                data: weeks.map((w) => w.denied),
                borderColor: VERMILION,
                backgroundColor: VERMILION,
                borderDash: [2, 2],
                pointStyle: 'triangle',
              },
            ],
          }}
          options={{
            responsive: true,
            maintainAspectRatio: false,
            plugins: { legend: { position: 'bottom' } },
            scales: { y: countAxis },
          }}
        />
      </ChartCard>
    </div>
  );
}
