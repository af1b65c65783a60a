import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

// Only the pieces our bar, doughnut and line charts use, so the chart chunk stays small. Imported by
// ChartCard, which every chart screen loads lazily with its page.
Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);
// No animations: a chart is drawn once, when its data is in. Animating redraws every chart for a second of
// frames while the rest of the screen is still rendering (main-thread time the table and the first
// interaction wait for), and people who asked the system for reduced motion must not get them anyway.
Chart.defaults.animation = false;

/** A palette that stays distinguishable for the common colour-vision deficiencies (Okabe–Ito). */
export const CHART_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];
