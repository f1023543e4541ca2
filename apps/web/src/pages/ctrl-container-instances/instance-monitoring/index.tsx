import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import type { MonitorMetricValue } from '@slg/shared';
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Result, Segmented, Skeleton, Switch, theme, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../api/client';
import type { InstanceView } from '../../../api/compute';
import { fetchInstanceDetail, fetchMetric, type MetricAnswer } from '../../../api/monitoring';
import { queryKeys } from '../../../api/queryKeys';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { useEffectiveColorMode } from '../../../stores/colorMode';
import { withAntd } from '../../../theme/AntdScope';
import { InstanceStatus } from '../containerInstances/components/InstanceStatus';
import '../instances.css';
import { COMPUTE_PATHS } from '../paths';
import {
  AUTO_REFRESH_MS,
  chartOption,
  CHARTS,
  formatValue,
  hasPoints,
  latestOf,
  linesOf,
  PAGE_METRICS,
  SCRAPE_SECONDS,
  TIME_RANGES,
  timeRangeOf,
  windowFor,
  type ChartLine,
  type ChartPalette,
  type ChartSpec,
  type TimeRange,
  type TimeWindow,
} from './monitoringModel';
import './monitoring.css';
import { MONITORING_TEXTS } from './texts';

const T = MONITORING_TEXTS;
/** ECharts is most of this page's weight: it loads beside the data, not before the page shows. */
const MetricChart = lazy(() => import('./MetricChart'));
const INSTANCE_ID_PATTERN = /^slg-[a-z0-9]{10}$/;
/** The header's status follows the instance (a power-off shows within this time). */
const DETAIL_REFRESH_MS = 15_000;

/** A metric's answer together with the window it was asked for (the chart's time axis). */
interface LoadedMetric {
  window: TimeWindow;
  answer: MetricAnswer;
}

const monitoringKey = (instanceId: string, range: TimeRange['key'], metric: MonitorMetricValue) =>
  [...queryKeys.instances, 'monitoring', instanceId, range, metric] as const;

function useInstance(instanceId: string, enabled: boolean, autoRefresh: boolean) {
  return useQuery({
    queryKey: [...queryKeys.instances, 'detail', instanceId],
    queryFn: ({ signal }) => fetchInstanceDetail(instanceId, signal),
    enabled,
    refetchInterval: autoRefresh ? DETAIL_REFRESH_MS : false,
  });
}

/** Every metric of the page for the range, each asked for the window of the moment it is fetched. */
function useMetrics(instanceId: string, range: TimeRange, enabled: boolean, autoRefresh: boolean, running: boolean) {
  // A machine that just started has no sample yet: ask again at the scrape interval until it has one.
  const interval = (data: LoadedMetric | undefined) =>
    running && data && data.answer.series.every((series) => series.points.length === 0) ? SCRAPE_SECONDS * 1000 : AUTO_REFRESH_MS;
  return useQueries({
    queries: PAGE_METRICS.map((metric) => ({
      queryKey: monitoringKey(instanceId, range.key, metric),
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<LoadedMetric> => {
        const window = windowFor(range.seconds, Math.floor(Date.now() / 1000));
        return { window, answer: await fetchMetric({ instanceId, metric, ...window }, signal) };
      },
      enabled,
      refetchInterval: autoRefresh ? (query: { state: { data: LoadedMetric | undefined } }) => interval(query.state.data) : (false as const),
    })),
  });
}

function usePalette(): ChartPalette {
  const { token } = theme.useToken();
  const mode = useEffectiveColorMode();
  return useMemo(
    () => ({
      text: token.colorText,
      textSecondary: token.colorTextSecondary,
      border: token.colorBorder,
      split: token.colorSplit,
      tooltipBackground: token.colorBgElevated,
      total: token.colorTextTertiary,
      // Readable on the card in each mode (the dark set is lighter).
      lines:
        mode === 'dark'
          ? ['#69b1ff', '#95de64', '#ffc069', '#ff85c0', '#5cdbd3', '#b37feb', '#fff566', '#ff9c6e']
          : ['#0958d9', '#389e0d', '#d46b08', '#c41d7f', '#08979c', '#531dab', '#ad8b00', '#d4380d'],
    }),
    [token, mode],
  );
}

interface ChartCardProps {
  spec: ChartSpec;
  result: UseQueryResult<LoadedMetric> | undefined;
  totalResult: UseQueryResult<LoadedMetric> | undefined;
  range: TimeRange;
  instance: InstanceView | undefined;
  palette: ChartPalette;
  phone: boolean;
}

/** The latest values beside a chart's title, when the instance reported recently. */
function latestText(spec: ChartSpec, lines: readonly ChartLine[], window: TimeWindow): string | null {
  if (spec.unit === '%') {
    const values = lines.map((line) => latestOf(line, window)).filter((value): value is number => value !== null);
    if (values.length === 0) return null;
    return T.latest.percent(formatValue(values.reduce((sum, value) => sum + value, 0) / values.length, '%'));
  }
  const used = latestOf(lines.find((line) => line.role === 'used'), window);
  const total = latestOf(lines.find((line) => line.role === 'total'), window);
  return used !== null && total !== null ? T.latest.usedOf(formatValue(used, 'GB'), formatValue(total, 'GB')) : null;
}

/** The lines of a chart and the window they span, once every query of the chart has an answer. */
function chartData(spec: ChartSpec, data: LoadedMetric | undefined, totalData: LoadedMetric | undefined) {
  if (!data || (spec.totalMetric && !totalData)) return null;
  const window: TimeWindow = totalData
    ? { start: Math.min(data.window.start, totalData.window.start), end: Math.max(data.window.end, totalData.window.end), step: data.window.step }
    : data.window;
  return { window, lines: linesOf(spec, data.answer, totalData?.answer) };
}

function ChartCard({ spec, result, totalResult, range, instance, palette, phone }: ChartCardProps) {
  const data = result?.data;
  const totalData = totalResult?.data;
  // Rebuilt when an answer or the look changes, not on every render (a hovered tooltip stays put).
  const chart = useMemo(() => {
    const loaded = chartData(spec, data, totalData);
    return loaded ? { ...loaded, option: chartOption({ spec, ...loaded, palette, compact: phone }) } : null;
  }, [spec, data, totalData, palette, phone]);
  const failed = [result, totalResult].find((item) => item?.isError && !item.data);
  const height = phone ? 200 : 240;

  const skeleton = <Skeleton active title={false} paragraph={{ rows: 5 }} style={{ minHeight: height }} />;
  let body: ReactNode;
  if (failed) {
    body = <QueryError title={T.chartFailed} error={failed.error} onRetry={() => [result, totalResult].forEach((item) => void item?.refetch())} />;
  } else if (!chart) {
    body = skeleton;
  } else if (!hasPoints(chart.lines)) {
    const noGpu = spec.key === 'gpu' && instance?.status === 'PoweredOnNoGPU';
    body = <Empty className="slg-monitor-chart-empty" style={{ minHeight: height }} image={Empty.PRESENTED_IMAGE_SIMPLE} description={noGpu ? T.chartEmptyNoGpu : T.chartEmpty} />;
  } else {
    body = (
      <Suspense fallback={skeleton}>
        <MetricChart option={chart.option} label={T.chartLabel(spec.title, range.label)} height={height} />
      </Suspense>
    );
  }
  const latest = chart && hasPoints(chart.lines) ? latestText(spec, chart.lines, chart.window) : null;
  return (
    <Card
      size="small"
      className={spec.wide ? 'slg-monitor-card is-wide' : 'slg-monitor-card'}
      title={
        <span className="slg-monitor-card-title">
          <span>{spec.title}</span>
          <Typography.Text type="secondary" className="slg-monitor-unit">
            {spec.unit}
          </Typography.Text>
        </span>
      }
      extra={latest ? <Typography.Text className="slg-monitor-latest">{latest}</Typography.Text> : null}
    >
      {body}
    </Card>
  );
}

/** 实例监控: GPU, CPU, memory and disk curves of one instance over a chosen range, refreshed every 30 s. */
function InstanceMonitoringPage() {
  const phone = useIsPhone();
  const palette = usePalette();
  const [params, setParams] = useSearchParams();
  const instanceId = params.get('instanceId')?.trim() ?? '';
  const validId = INSTANCE_ID_PATTERN.test(instanceId);
  const range = timeRangeOf(params.get('range'));
  const [autoRefresh, setAutoRefresh] = useState(true);

  const instance = useInstance(instanceId, validId, autoRefresh);
  const missing = instance.isError && isApiError(instance.error) && instance.error.status === 404;
  const running = instance.data?.status === 'PoweredOn' || instance.data?.status === 'PoweredOnNoGPU';
  const metricResults = useMetrics(instanceId, range, validId && !missing, autoRefresh, running);
  const results = new Map(PAGE_METRICS.map((metric, index) => [metric, metricResults[index]]));

  const back = (
    <LinkButton to={COMPUTE_PATHS.list} type="text" icon={<ArrowLeftOutlined aria-hidden />}>
      {T.back}
    </LinkButton>
  );
  const header = (extra?: ReactNode, description?: ReactNode) => <PageHeader title={T.title} back={back} description={description} extra={extra} />;

  if (!validId || missing) {
    return (
      <div className="slg-page">
        {header()}
        <Card>
          {validId ? (
            <Result status="404" title={T.notFound} subTitle={T.notFoundSubtitle(instanceId)} extra={back} />
          ) : (
            <Result status="warning" title={T.missingId} subTitle={T.missingIdSubtitle} extra={back} />
          )}
        </Card>
      </div>
    );
  }

  const refetchAll = () => {
    void instance.refetch();
    metricResults.forEach((result) => void result.refetch());
  };
  const all = metricResults;
  const settled = all.every((result) => !result.isPending);
  const allFailed = settled && all.every((result) => result.isError && !result.data);
  const staleError = all.find((result) => result.isError && result.data)?.error;
  // Every answer is in and not one point among them: the instance did not run in the range.
  const nothingRan = settled && all.every((result) => result.data && !result.isError && result.data.answer.series.every((series) => series.points.length === 0));
  const updatedAt = Math.max(0, ...all.map((result) => result.dataUpdatedAt));
  const fetching = all.some((result) => result.isFetching) || instance.isFetching;

  const toolbar = (
    <div className="slg-monitor-toolbar" role="group" aria-label={T.toolbar.label}>
      <Segmented<TimeRange['key']>
        aria-label={T.toolbar.range}
        value={range.key}
        options={TIME_RANGES.map((item) => ({ value: item.key, label: item.label }))}
        onChange={(key) =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              next.set('range', key);
              return next;
            },
            { replace: true },
          )
        }
      />
      <div className="slg-monitor-refresh">
        <label className="slg-monitor-auto">
          <Switch size="small" checked={autoRefresh} onChange={setAutoRefresh} aria-label={T.toolbar.autoRefresh} />
          <span>
            {T.toolbar.autoRefresh}
            <Typography.Text type="secondary">{T.toolbar.autoRefreshHint(AUTO_REFRESH_MS / 1000)}</Typography.Text>
          </span>
        </label>
        <Button size="small" icon={<ReloadOutlined aria-hidden />} loading={fetching} onClick={refetchAll}>
          {T.toolbar.refresh}
        </Button>
        {updatedAt > 0 ? (
          <Typography.Text type="secondary" className="slg-monitor-updated">
            {T.toolbar.updatedAt(new Date(updatedAt).toLocaleTimeString('zh-CN', { hour12: false }))}
          </Typography.Text>
        ) : null}
      </div>
    </div>
  );

  let content: ReactNode;
  if (allFailed) {
    content = (
      <Card>
        <QueryError variant="page" title={T.loadFailed} error={all[0]?.error} onRetry={refetchAll} />
      </Card>
    );
  } else if (nothingRan) {
    content = (
      <Card>
        <Empty description={running ? T.emptyStarting : T.empty}>
          <Typography.Text type="secondary">{running ? T.emptyStartingHint : T.emptyHint}</Typography.Text>
        </Empty>
      </Card>
    );
  } else {
    content = (
      <div className="slg-monitor-grid">
        {CHARTS.map((spec) => (
          <ChartCard
            key={spec.key}
            spec={spec}
            result={results.get(spec.metric)}
            totalResult={spec.totalMetric ? results.get(spec.totalMetric) : undefined}
            range={range}
            instance={instance.data}
            palette={palette}
            phone={phone}
          />
        ))}
      </div>
    );
  }

  const description = instance.data ? T.description(instance.data.name, instance.data.instanceId) : instance.isError ? instanceId : T.descriptionLoading;
  return (
    <div className="slg-page">
      {header(instance.data ? <InstanceStatus instance={instance.data} /> : null, description)}
      {instance.isError && !missing ? (
        <Alert type="warning" showIcon className="slg-monitor-alert" title={T.instanceLoadFailed} description={instance.error instanceof Error ? instance.error.message : undefined} />
      ) : null}
      {staleError ? (
        <StaleDataAlert className="slg-monitor-alert" title={T.refreshFailed} error={staleError} onRetry={refetchAll} />
      ) : null}
      {toolbar}
      {content}
    </div>
  );
}

export default withAntd(InstanceMonitoringPage);
