import { useEffect, useState } from 'react';

/**
 * Charts are drawn one per task. Creating and drawing a Chart.js chart costs tens of milliseconds of main
 * thread; a screen's three charts drawn in one React commit made one long task (~150 ms on the Claims
 * screen, most of its Total Blocking Time), during which a click or a keystroke waited. Here each chart
 * waits for its turn, and the next turn is given in a later task, after the previous chart is drawn, so
 * input is handled between charts.
 */
const waiting: (() => void)[] = [];
let drawing = false;

function giveNextTurn() {
  const next = waiting.shift();
  drawing = next !== undefined;
  next?.();
}

function requestTurn(start: () => void): () => void {
  waiting.push(start);
  if (!drawing) giveNextTurn();
  return () => {
    const at = waiting.indexOf(start);
    if (at >= 0) waiting.splice(at, 1);
  };
}

/**
 * False until it is this chart's turn (while `wanted`), then true for good. Place-holding the chart's
 * space meanwhile keeps the layout still.
 */
export function useChartTurn(wanted: boolean): boolean {
  const [turn, setTurn] = useState(false);
  useEffect(() => {
    if (!wanted || turn) return;
    return requestTurn(() => setTurn(true));
  }, [wanted, turn]);
  useEffect(() => {
    if (!turn) return;
    let passed = false;
    const passTurn = () => {
      if (passed) return;
      passed = true;
      giveNextTurn();
    };
    // This runs after the commit that mounted the chart, beside react-chartjs-2's effect that draws it: the
    // next chart's turn comes in a task of its own.
    const timer = setTimeout(passTurn, 0);
    return () => {
      clearTimeout(timer);
      // Unmounted before passing the turn on: pass it now, or the charts after it would never draw.
      passTurn();
    };
  }, [turn]);
  return turn;
}
