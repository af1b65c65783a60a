import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ChartCard } from './ChartCard';

const table = {
  columns: [{ header: 'Payer' }, { header: 'Denied', numeric: true }],
  rows: [
    ['Aetna', '12'],
    ['Cigna', '7'],
  ],
};

describe('ChartCard', () => {
  it('gives the chart a title and its data as a table that screen readers always reach', async () => {
    const user = userEvent.setup();
    render(
      <ChartCard title="Denials by Payer" empty={false} table={table}>
        <canvas />
      </ChartCard>,
    );
    expect(screen.getByRole('heading', { name: 'Denials by Payer' })).toBeTruthy();
    expect(screen.getByRole('img', { name: /Denials by Payer chart/ })).toBeTruthy();
    const dataTable = screen.getByRole('table', { name: 'Denials by Payer' });
    // The box around the table is what hides it (a hidden table would still be as wide as its content).
    const dataBox = dataTable.parentElement!;
    expect(dataBox.className).toBe('sr-only');
    expect(screen.getByRole('button', { name: 'Show data' }).getAttribute('aria-controls')).toBe(dataBox.id);
    expect(screen.getByRole('cell', { name: 'Aetna' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show data' }));
    expect(dataBox.className).not.toBe('sr-only');
    expect(screen.getByRole('button', { name: 'Hide data' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('shows the empty text instead of a chart when there is no data', () => {
    render(
      <ChartCard
        title="Top Denial Reasons"
        empty
        emptyText="No denials in this period"
        table={{ columns: [], rows: [] }}
      >
        <canvas data-testid="chart" />
      </ChartCard>,
    );
    expect(screen.getByText('No denials in this period')).toBeTruthy();
    expect(screen.queryByTestId('chart')).toBeNull();
  });

  it('draws the charts of a screen one per task, the next after the one before it', async () => {
    render(
      <>
        <ChartCard title="Denials by Payer" empty={false} table={table}>
          <canvas data-testid="first" />
        </ChartCard>
        <ChartCard title="Weekly Claims Trend" empty={false} table={table}>
          <canvas data-testid="second" />
        </ChartCard>
      </>,
    );
    expect(screen.getByTestId('first')).toBeTruthy();
    // Not in the commit that drew the first one: in a task after it.
    expect(screen.queryByTestId('second')).toBeNull();
    expect(await screen.findByTestId('second')).toBeTruthy();
  });

  it('passes the turn on when a chart leaves the screen before its turn ends', async () => {
    const leaving = render(
      <ChartCard title="Denials by Payer" empty={false} table={table}>
        <canvas data-testid="leaving" />
      </ChartCard>,
    );
    render(
      <ChartCard title="Weekly Claims Trend" empty={false} table={table}>
        <canvas data-testid="staying" />
      </ChartCard>,
    );
    expect(screen.getByTestId('leaving')).toBeTruthy();
    expect(screen.queryByTestId('staying')).toBeNull();
    leaving.unmount();
    expect(await screen.findByTestId('staying')).toBeTruthy();
  });
});
