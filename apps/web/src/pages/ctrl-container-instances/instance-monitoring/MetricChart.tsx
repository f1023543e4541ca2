/**
 * One ECharts line chart, loaded apart from the page (the page and its data requests start at once and
 * show skeletons meanwhile). Only the parts the monitoring page draws are registered (line series, grid,
 * tooltip, legend, zoom, canvas), imported from `echarts/core`, so the library ships in this page's
 * chart chunk alone and at a fraction of its full size.
 */
import { LineChart } from 'echarts/charts';
import { DataZoomInsideComponent, DataZoomSliderComponent, GridComponent, LegendScrollComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerEcharts, type EChartsType } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { MonitorChartOption } from './monitoringModel';

registerEcharts([LineChart, GridComponent, TooltipComponent, LegendScrollComponent, DataZoomInsideComponent, DataZoomSliderComponent, CanvasRenderer]);

interface MetricChartProps {
  option: MonitorChartOption;
  /** What the chart shows, for assistive technology (a canvas has no text). */
  label: string;
  height: number;
}

export default function MetricChart({ option, label, height }: MetricChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const instance = init(element, null, { renderer: 'canvas' });
    chart.current = instance;
    // The grid of cards reflows with the window and the sidebar: the canvas follows its box.
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // notMerge: a line that disappeared (a GPU run that left the window) must not linger.
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={container} role="img" aria-label={label} className="slg-monitor-chart" style={{ height }} />;
}
