/**
 * What the monitoring page asks for and how a chart is drawn, without React or ECharts code: the time
 * ranges and their steps, the charts and their metrics, gaps where the instance did not run, and the
 * ECharts option of a chart (types only from echarts, so nothing here loads the library).
 */
import type { MonitorMetricValue } from '@slg/shared';
import type { LineSeriesOption } from 'echarts/charts';
import type { DataZoomComponentOption, GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { MetricAnswer, MetricPoint } from '../../../api/monitoring';
import { MONITORING_TEXTS } from './texts';

const T = MONITORING_TEXTS;

export type MonitorChartOption = ComposeOption<LineSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption | DataZoomComponentOption>;

export const TIME_RANGES = [
  { key: '1h', label: T.ranges.hour, seconds: 3600 },
  { key: '6h', label: T.ranges.sixHours, seconds: 6 * 3600 },
  { key: '24h', label: T.ranges.day, seconds: 86_400 },
  { key: '7d', label: T.ranges.week, seconds: 7 * 86_400 },
] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
export type TimeRangeKey = TimeRange['key'];

export function timeRangeOf(key: string | null | undefined): TimeRange {
  return TIME_RANGES.find((range) => range.key === key) ?? TIME_RANGES[0];
}

/** Points per chart: about one per two pixels of a desktop chart; the server allows up to 1,100. */
export const POINTS_PER_CHART = 240;
/** The simulated fleet and a usual Prometheus scrape report every 15 s: steps are multiples of it. */
export const SCRAPE_SECONDS = 15;
export const AUTO_REFRESH_MS = 30_000;

/** The times a chart asks for. */
export interface TimeWindow {
  start: number;
  end: number;
  step: number;
}

/**
 * The last `rangeSeconds` up to now, every `step` seconds. The start is a multiple of the step, so the
 * points of one refresh are the points of the next (curves do not shimmer on every refresh).
 */
export function windowFor(rangeSeconds: number, nowSeconds: number): TimeWindow {
  const step = Math.max(SCRAPE_SECONDS, Math.ceil(rangeSeconds / POINTS_PER_CHART / SCRAPE_SECONDS) * SCRAPE_SECONDS);
  return { start: Math.ceil((nowSeconds - rangeSeconds) / step) * step, end: nowSeconds, step };
}

export interface ChartSpec {
  key: 'gpu' | 'cpu' | 'memory' | 'dataDisk' | 'systemDisk';
  title: string;
  unit: '%' | 'GB';
  /** Its series are the chart's lines (one per GPU), or the used part when there is a total. */
  metric: MonitorMetricValue;
  /** The capacity, drawn dashed above the used part. */
  totalMetric?: MonitorMetricValue;
  /** Spans the whole width on a desktop (one line per GPU needs the room). */
  wide?: boolean;
}

export const CHARTS: readonly ChartSpec[] = [
  { key: 'gpu', title: T.charts.gpu, unit: '%', metric: 'GPU', wide: true },
  { key: 'cpu', title: T.charts.cpu, unit: '%', metric: 'CPU' },
  { key: 'memory', title: T.charts.memory, unit: 'GB', metric: 'MEMORY', totalMetric: 'MEMORY_COUNT' },
  { key: 'dataDisk', title: T.charts.dataDisk, unit: 'GB', metric: 'PVC_USAGE', totalMetric: 'PVC_CAPACITY' },
  { key: 'systemDisk', title: T.charts.systemDisk, unit: 'GB', metric: 'SYS_DISK_USAGE', totalMetric: 'SYS_DISK_COUNT' },
];

/** Every metric the page loads, once each. */
export const PAGE_METRICS: readonly MonitorMetricValue[] = CHARTS.flatMap((chart) => (chart.totalMetric ? [chart.metric, chart.totalMetric] : [chart.metric]));

/** A chart line's points with breaks: `[ms, null]` where a point is missing (the instance was off). */
export function withGaps(points: readonly MetricPoint[], step: number): [number, number | null][] {
  const data: [number, number | null][] = [];
  points.forEach(([time, value], index) => {
    const previous = points[index - 1];
    if (previous && time - previous[0] > step * 1.5) data.push([(previous[0] + step) * 1000, null]);
    data.push([time * 1000, value]);
  });
  return data;
}

/** How a line shows: one of several (GPUs), the used part of a total, or the total. */
export type LineRole = 'lines' | 'used' | 'total';

/** One line of a chart, named for the reader. */
export interface ChartLine {
  name: string;
  role: LineRole;
  points: readonly MetricPoint[];
}

export function linesOf(spec: ChartSpec, answer: MetricAnswer | undefined, totalAnswer: MetricAnswer | undefined): ChartLine[] {
  const role: LineRole = spec.totalMetric ? 'used' : 'lines';
  const lines = (answer?.series ?? []).map((series) => ({
    name: role === 'used' ? T.series.used : spec.key === 'cpu' ? T.series.cpu : series.name,
    role,
    points: series.points,
  }));
  const totals = (totalAnswer?.series ?? []).map((series) => ({ name: T.series.total, role: 'total' as const, points: series.points }));
  return [...lines, ...totals];
}

export function hasPoints(lines: readonly ChartLine[]): boolean {
  return lines.some((line) => line.points.length > 0);
}

/** The last value of a line when it is recent (within two steps of the window's end), else null. */
export function latestOf(line: ChartLine | undefined, window: TimeWindow): number | null {
  const last = line?.points.at(-1);
  return last && window.end - last[0] <= window.step * 2 ? last[1] : null;
}

/** A value as the charts print it: at most one decimal for %, two for GB. */
export function formatValue(value: number, unit: ChartSpec['unit']): string {
  const digits = unit === '%' ? 1 : 2;
  return String(Math.round(value * 10 ** digits) / 10 ** digits);
}

/** Colours of the current colour mode (from antd's tokens), so the charts follow light and dark. */
export interface ChartPalette {
  text: string;
  textSecondary: string;
  border: string;
  split: string;
  tooltipBackground: string;
  lines: readonly string[];
  total: string;
}

const pad = (value: number) => String(value).padStart(2, '0');
/** `MM-DD HH:mm:ss` in local time. */
function formatTooltipTime(ms: number): string {
  const time = new Date(ms);
  return `${pad(time.getMonth() + 1)}-${pad(time.getDate())} ${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

interface TooltipItem {
  marker?: unknown;
  seriesName?: string;
  value?: unknown;
}

export interface ChartOptionInput {
  spec: ChartSpec;
  lines: readonly ChartLine[];
  window: TimeWindow;
  palette: ChartPalette;
  /** Phone width: no zoom slider (it would take the touch gestures that scroll the page). */
  compact: boolean;
}

/** The ECharts option of one chart: the whole window on the time axis, gaps where nothing ran. */
export function chartOption({ spec, lines, window, palette, compact }: ChartOptionInput): MonitorChartOption {
  const legend = lines.length > 1;
  const unitSuffix = spec.unit === '%' ? '%' : ' GB';
  let colorIndex = 0;
  const series: LineSeriesOption[] = lines.map((line) => {
    const color = line.role === 'total' ? palette.total : (palette.lines[colorIndex++ % palette.lines.length] ?? palette.text);
    return {
      type: 'line',
      name: line.name,
      data: withGaps(line.points, window.step),
      showSymbol: false,
      connectNulls: false,
      color,
      lineStyle: { width: line.role === 'total' ? 1 : 1.5, type: line.role === 'total' ? 'dashed' : 'solid' },
      areaStyle: line.role === 'used' ? { opacity: 0.15 } : undefined,
      emphasis: { disabled: true },
    };
  });
  return {
    animation: false,
    backgroundColor: 'transparent',
    textStyle: { color: palette.text, fontFamily: 'inherit' },
    grid: { left: 4, right: 12, top: legend ? 36 : 12, bottom: compact ? 4 : 40, containLabel: true },
    legend: legend ? { type: 'scroll', top: 0, left: 0, right: 0, icon: 'roundRect', itemWidth: 12, itemHeight: 4, textStyle: { color: palette.textSecondary }, pageTextStyle: { color: palette.textSecondary } } : { show: false },
    tooltip: {
      trigger: 'axis',
      confine: true,
      backgroundColor: palette.tooltipBackground,
      borderColor: palette.border,
      textStyle: { color: palette.text, fontSize: 12 },
      formatter: (params: unknown) => {
        const items = (Array.isArray(params) ? params : [params]) as TooltipItem[];
        const first = items[0]?.value;
        const time = Array.isArray(first) ? Number(first[0]) : Number.NaN;
        const rows = items
          .filter((item) => Array.isArray(item.value) && typeof item.value[1] === 'number')
          .map((item) => `${typeof item.marker === 'string' ? item.marker : ''}${escapeHtml(item.seriesName ?? '')}：${formatValue((item.value as [number, number])[1], spec.unit)}${unitSuffix}`);
        if (!Number.isFinite(time) || rows.length === 0) return '';
        return [formatTooltipTime(time), ...rows].join('<br/>');
      },
    },
    xAxis: {
      type: 'time',
      min: window.start * 1000,
      max: window.end * 1000,
      axisLine: { lineStyle: { color: palette.border } },
      axisTick: { show: false },
      splitLine: { show: false },
      axisLabel: {
        color: palette.textSecondary,
        hideOverlap: true,
        formatter: { year: '{yyyy}', month: '{MM}-{dd}', day: '{MM}-{dd}', hour: '{HH}:{mm}', minute: '{HH}:{mm}', second: '{HH}:{mm}:{ss}', millisecond: '{HH}:{mm}:{ss}' },
      },
    },
    yAxis: {
      type: 'value',
      min: 0,
      max: spec.unit === '%' ? 100 : undefined,
      // 0, 25, 50, 75, 100 for percentages (an automatic split leaves 90 and 100 crowded together).
      interval: spec.unit === '%' ? 25 : undefined,
      splitNumber: 4,
      axisLabel: { color: palette.textSecondary, formatter: spec.unit === '%' ? '{value}%' : '{value}' },
      splitLine: { lineStyle: { color: palette.split } },
    },
    dataZoom: compact
      ? []
      : [
          { type: 'inside', xAxisIndex: 0, zoomOnMouseWheel: 'ctrl', moveOnMouseWheel: false, moveOnMouseMove: true, preventDefaultMouseMove: false },
          {
            type: 'slider',
            xAxisIndex: 0,
            height: 16,
            bottom: 6,
            showDetail: false,
            borderColor: palette.border,
            textStyle: { color: palette.textSecondary },
            dataBackground: { lineStyle: { color: palette.border }, areaStyle: { color: palette.split } },
          },
        ],
    series,
  };
}
