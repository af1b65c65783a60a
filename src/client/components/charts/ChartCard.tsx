import { useId, useState, type ReactNode } from 'react';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { CHART_HEIGHT, ChartCardSkeleton } from './ChartCardSkeleton';
import { useChartTurn } from './chart-turns';
import './chart-setup';

export interface ChartTableColumn {
  header: string;
  /** Right-aligned numbers read better in a data table. */
  numeric?: boolean;
}

export interface ChartCardProps {
  title: string;
  description?: string;
  loading?: boolean;
  /** True when there is nothing to draw: the card then shows `emptyText` instead of an empty chart. */
  empty: boolean;
  emptyText?: string;
  /**
   * The chart's data as a table: screen readers get it instead of the canvas, and sighted keyboard users
   * can open it ('Show data'). Cells are already formatted for reading.
   */
  table: { columns: ChartTableColumn[]; rows: ReactNode[][] };
  /** The chart itself (react-chartjs-2 element). */
  children: ReactNode;
  height?: number;
}

/**
 * Every chart of the product sits in one of these: a title, an empty state instead of
 * an error on empty data, and a text alternative — the same numbers as a table.
 */
export function ChartCard({
  title,
  description,
  loading = false,
  empty,
  emptyText = 'No data for this period',
  table,
  children,
  height = CHART_HEIGHT,
}: ChartCardProps) {
  const tableId = useId();
  const [showTable, setShowTable] = useState(false);
  const drawn = useChartTurn(!loading && !empty);
  if (loading) return <ChartCardSkeleton title={title} description={description} height={height} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>
        {empty ? (
          <p
            className="flex items-center justify-center rounded-md border border-dashed text-muted-foreground"
            style={{ height }}
          >
            {emptyText}
          </p>
        ) : (
          <>
            {/* For screen readers the canvas is a picture whose data is the table that follows. */}
            <div
              role="img"
              aria-label={`${title} chart; its data follows as a table`}
              style={{ height, position: 'relative' }}
            >
              {drawn && children}
            </div>
            <Button
              variant="link"
              size="sm"
              className="mt-2 px-0"
              aria-controls={tableId}
              aria-expanded={showTable}
              onClick={() => setShowTable((v) => !v)}
            >
              {showTable ? 'Hide data' : 'Show data'}
            </Button>
            {/*
              Always in the accessibility tree; shown on screen on request. The box, not the table, is hidden:
              a table keeps its content's width whatever its own width, so a hidden table widened the page.
            */}
            <div id={tableId} className={showTable ? 'relative mt-2 overflow-x-auto' : 'sr-only'}>
              <table className="w-full text-sm">
                <caption className="sr-only">{title}</caption>
                <thead>
                  <tr className="border-b border-border">
                    {table.columns.map((c) => (
                      <th key={c.header} scope="col" className={c.numeric ? 'py-1 text-right' : 'py-1 text-left'}>
                        {c.header}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {table.rows.map((row, i) => (
                    <tr key={i} className="border-b border-border/60">
                      {row.map((cell, j) => (
                        <td key={j} className={table.columns[j]?.numeric ? 'py-1 text-right tabular-nums' : 'py-1'}>
                          {cell}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
