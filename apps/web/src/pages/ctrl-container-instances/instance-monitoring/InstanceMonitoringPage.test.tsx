/** 实例监控: what is asked for per range, the charts and their states, light and dark. */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { LineSeriesOption } from 'echarts/charts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InstanceView } from '../../../api/compute';
import type { MetricAnswer } from '../../../api/monitoring';
import { useColorModeStore } from '../../../stores/colorMode';
import { callsTo, failure, mockApi, ok, pending, renderPage } from '../../ctrl-cost-center/testing';
import { InstanceActions } from '../containerInstances/components/InstanceActions';
import InstanceMonitoringPage from './index';
import { chartOption, CHARTS, PAGE_METRICS, TIME_RANGES, windowFor, withGaps, type ChartPalette, type MonitorChartOption } from './monitoringModel';

// A canvas chart cannot draw in jsdom: the stand-in shows what it was given.
vi.mock('./MetricChart', () => ({
  default: ({ option, label }: { option: MonitorChartOption; label: string }) => {
    const series = (option.series ?? []) as LineSeriesOption[];
    return (
      <div role="img" aria-label={label} data-color={String(series[0]?.color)}>
        {series.map((line) => (
          <span key={String(line.name)}>{`${String(line.name)}:${(line.data as unknown[]).length}`}</span>
        ))}
      </div>
    );
  },
}));

afterEach(() => {
  cleanup();
  useColorModeStore.getState().setPreference('light');
});
beforeEach(() => useColorModeStore.getState().setPreference('light'));
import { RUNNING_INSTANCE } from '../testing';

const INSTANCE: InstanceView = { ...RUNNING_INSTANCE, memoryGb: 180 };

const PATH = '/ctrl-container-instances/instance-monitoring?instanceId=slg-aaaaaaaaaa';
const UNITS: Record<string, string> = { GPU: '%', CPU: '%' };
const NAMES: Record<string, string> = { CPU: 'CPU 利用率', MEMORY: '内存使用量', MEMORY_COUNT: '内存总量' };

/** The last minute, every 15 s, up to the `end` asked for. */
function points(url: URL, value: number): [number, number][] {
  const end = Number(url.searchParams.get('end'));
  return [45, 30, 15, 0].map((ago) => [end - ago, value + ago / 15]);
}

function answerFor(url: URL, running = true): MetricAnswer {
  const metric = url.searchParams.get('metric') as MetricAnswer['metric'];
  const step = Number(url.searchParams.get('step'));
  const value = { MEMORY: 40, MEMORY_COUNT: 180, PVC_USAGE: 12.5, PVC_CAPACITY: 50, SYS_DISK_USAGE: 11, SYS_DISK_COUNT: 30 }[metric as string] ?? 80;
  const names = metric === 'GPU' ? ['GPU 0', 'GPU 1'] : [NAMES[metric] ?? metric];
  return { metric, unit: UNITS[metric] ?? 'GB', step, series: names.map((name) => ({ name, points: running ? points(url, value) : [] })) };
}

function mockMonitoring(options: { running?: boolean; instance?: InstanceView; metric?: (url: URL) => Response | Promise<Response> } = {}) {
  return mockApi({
    'GET /rental/detail': () => ok(options.instance ?? INSTANCE),
    'GET /prometheus/query/metric': options.metric ?? ((url) => ok(answerFor(url, options.running ?? true))),
  });
}

describe('实例监控', () => {
  it('names the instance, asks for every metric of the last hour every 15 s, and draws GPU, CPU, memory and disks', async () => {
    const { fetchMock } = mockMonitoring();
    renderPage(<InstanceMonitoringPage />, PATH);
    expect(await screen.findByText('训练机（slg-aaaaaaaaaa）')).toBeTruthy();
    expect(screen.getByText('运行中')).toBeTruthy();

    const gpu = await screen.findByRole('img', { name: 'GPU 利用率，最近1 小时' });
    expect(gpu.textContent).toBe('GPU 0:4GPU 1:4');
    expect(screen.getByRole('img', { name: 'CPU 利用率，最近1 小时' }).textContent).toBe('CPU:4');
    // Used and total: the capacity is the dashed line above the used part.
    expect(screen.getByRole('img', { name: '内存，最近1 小时' }).textContent).toBe('已用:4总量:4');
    expect(screen.getByRole('img', { name: '数据盘，最近1 小时' })).toBeTruthy();
    expect(screen.getByRole('img', { name: '系统盘，最近1 小时' })).toBeTruthy();
    // The latest values beside the titles.
    expect(screen.getAllByText('当前 80%')).toHaveLength(2);
    expect(screen.getByText('40 / 180 GB')).toBeTruthy();
    expect(screen.getByText('12.5 / 50 GB')).toBeTruthy();

    const calls = callsTo(fetchMock, 'GET', '/prometheus/query/metric').map(([input]) => new URL(String(input), 'http://localhost').searchParams);
    expect(calls.map((params) => params.get('metric')).sort()).toEqual([...PAGE_METRICS].sort());
    for (const params of calls) {
      expect(params.get('instanceId')).toBe('slg-aaaaaaaaaa');
      expect(params.get('step')).toBe('15');
      const start = Number(params.get('start'));
      const end = Number(params.get('end'));
      expect(start % 15).toBe(0);
      expect(end - start).toBeLessThanOrEqual(3600);
      expect(end - start).toBeGreaterThan(3600 - 15);
    }
  });

  it('asks for 7 days at a coarser step when the range changes, and keeps the range in the address', async () => {
    const { fetchMock } = mockMonitoring();
    const { router } = renderPage(<InstanceMonitoringPage />, PATH);
    await screen.findByRole('img', { name: 'GPU 利用率，最近1 小时' });
    fireEvent.click(screen.getByText('7 天'));
    expect(await screen.findByRole('img', { name: 'GPU 利用率，最近7 天' })).toBeTruthy();
    expect(router.state.location.search).toContain('range=7d');
    const week = callsTo(fetchMock, 'GET', '/prometheus/query/metric')
      .map(([input]) => new URL(String(input), 'http://localhost').searchParams)
      .filter((params) => params.get('step') === '2520');
    expect(week).toHaveLength(PAGE_METRICS.length);
    const [first] = week;
    expect(Number(first?.get('end')) - Number(first?.get('start'))).toBeLessThanOrEqual(7 * 86_400);
  });

  it('says the instance did not run when no metric has a point', async () => {
    mockMonitoring({ running: false, instance: { ...INSTANCE, status: 'PoweredOff' } });
    renderPage(<InstanceMonitoringPage />, PATH);
    expect(await screen.findByText('实例未运行，暂无监控数据')).toBeTruthy();
    expect(screen.queryByRole('img', { name: /最近/ })).toBeNull();
  });

  it('tells a machine that just started its first sample is coming, and asks again every 15 s until it is there', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let sampled = false;
      const { fetchMock } = mockMonitoring({ metric: (url) => ok(answerFor(url, sampled)) });
      renderPage(<InstanceMonitoringPage />, PATH);
      expect(await screen.findByText('实例刚开始运行，监控数据即将出现')).toBeTruthy();
      expect(screen.queryByText('实例未运行，暂无监控数据')).toBeNull();
      const metricCalls = () => callsTo(fetchMock, 'GET', '/prometheus/query/metric').length;
      expect(metricCalls()).toBe(PAGE_METRICS.length);
      sampled = true;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(15_000);
      });
      await waitFor(() => expect(metricCalls()).toBe(2 * PAGE_METRICS.length));
      expect(await screen.findByRole('img', { name: 'GPU 利用率，最近1 小时' })).toBeTruthy();
      // With samples, back to every 30 s.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(15_000);
      });
      expect(metricCalls()).toBe(2 * PAGE_METRICS.length);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows skeletons while loading, and the server’s message with 重试 when every metric fails', async () => {
    let fail = true;
    mockMonitoring({ metric: (url) => (fail ? failure(503, 50300, '监控服务暂不可用，请稍后再试') : ok(answerFor(url))) });
    renderPage(<InstanceMonitoringPage />, PATH);
    expect(await screen.findByText('监控数据加载失败')).toBeTruthy();
    expect(screen.getByText('监控服务暂不可用，请稍后再试')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByText('重试', { selector: 'button *' }));
    expect(await screen.findByRole('img', { name: 'GPU 利用率，最近1 小时' })).toBeTruthy();
  });

  it('shows loading skeletons before the answers come', async () => {
    mockApi({ 'GET /rental/detail': () => pending(), 'GET /prometheus/query/metric': () => pending() });
    const { container } = renderPage(<InstanceMonitoringPage />, PATH);
    await waitFor(() => expect(container.querySelectorAll('.slg-monitor-card .ant-skeleton').length).toBe(CHARTS.length));
    expect(screen.getByText('正在加载实例…')).toBeTruthy();
    expect(screen.queryByText('实例未运行，暂无监控数据')).toBeNull();
  });

  it('tells a released or foreign instance, and a missing id, apart from an error', async () => {
    mockApi({ 'GET /rental/detail': () => failure(404, 40400, '实例不存在'), 'GET /prometheus/query/metric': () => failure(404, 40400, '实例不存在') });
    renderPage(<InstanceMonitoringPage />, PATH);
    expect(await screen.findByText('实例不存在或已释放')).toBeTruthy();
    cleanup();
    renderPage(<InstanceMonitoringPage />, '/ctrl-container-instances/instance-monitoring');
    expect(await screen.findByText('没有指定实例')).toBeTruthy();
  });

  it('draws in the colours of the dark mode when the console is dark', async () => {
    mockMonitoring();
    renderPage(<InstanceMonitoringPage />, PATH);
    const light = (await screen.findByRole('img', { name: 'CPU 利用率，最近1 小时' })).dataset.color;
    act(() => useColorModeStore.getState().setPreference('dark'));
    await waitFor(() => expect(screen.getByRole('img', { name: 'CPU 利用率，最近1 小时' }).dataset.color).not.toBe(light));
  });

  it('refreshes every 30 s while 自动刷新 is on, and not after it is switched off', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { fetchMock } = mockMonitoring();
      renderPage(<InstanceMonitoringPage />, PATH);
      await screen.findByRole('img', { name: 'GPU 利用率，最近1 小时' });
      const metricCalls = () => callsTo(fetchMock, 'GET', '/prometheus/query/metric').length;
      expect(metricCalls()).toBe(PAGE_METRICS.length);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(30_000);
      });
      await waitFor(() => expect(metricCalls()).toBe(2 * PAGE_METRICS.length));
      fireEvent.click(screen.getByRole('switch', { name: '自动刷新' }));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(60_000);
      });
      expect(metricCalls()).toBe(2 * PAGE_METRICS.length);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('实例列表 → 监控', () => {
  it('links every instance to its monitoring page, whatever its state', async () => {
    mockApi({});
    for (const status of ['PoweredOn', 'PoweredOff', 'CreationStarted'] as const) {
      renderPage(<InstanceActions instance={{ ...INSTANCE, status }} />, '/ctrl-container-instances/containerInstances');
      const link = (await screen.findByText('监控')).closest('a');
      expect(link?.getAttribute('href')).toBe(PATH);
      cleanup();
    }
  });
});

describe('monitoring model', () => {
  it('keeps every range within 241 points, on a step that is a multiple of 15 s, starting on the step', () => {
    const now = 1_780_000_007;
    for (const range of TIME_RANGES) {
      const window = windowFor(range.seconds, now);
      expect(window.step % 15).toBe(0);
      expect(window.start % window.step).toBe(0);
      expect(window.end).toBe(now);
      expect(now - window.start).toBeLessThanOrEqual(range.seconds);
      expect(Math.floor((window.end - window.start) / window.step) + 1).toBeLessThanOrEqual(241);
    }
    expect(TIME_RANGES.map((range) => windowFor(range.seconds, now).step)).toEqual([15, 90, 360, 2520]);
  });

  it('breaks a line where the instance did not run', () => {
    expect(
      withGaps(
        [
          [100, 1],
          [115, 2],
          [400, 3],
        ],
        15,
      ),
    ).toEqual([
      [100_000, 1],
      [115_000, 2],
      [130_000, null],
      [400_000, 3],
    ]);
  });

  const palette: ChartPalette = { text: '#000', textSecondary: '#555', border: '#ccc', split: '#eee', tooltipBackground: '#fff', total: '#888', lines: ['#0958d9', '#389e0d'] };

  it('spans the whole window, draws the total dashed, caps % at 100, and has no zoom slider on a phone', () => {
    const [, , memory] = CHARTS;
    if (!memory) throw new Error('no memory chart');
    const window = { start: 1000, end: 4600, step: 15 };
    const lines = [
      { name: '已用', role: 'used' as const, points: [[1015, 40]] as [number, number][] },
      { name: '总量', role: 'total' as const, points: [[1015, 180]] as [number, number][] },
    ];
    const option = chartOption({ spec: memory, lines, window, palette, compact: false });
    expect(option.xAxis).toMatchObject({ type: 'time', min: 1_000_000, max: 4_600_000 });
    const series = option.series as LineSeriesOption[];
    expect(series.map((line) => [line.name, line.color, (line.lineStyle as { type: string }).type])).toEqual([
      ['已用', '#0958d9', 'solid'],
      ['总量', '#888', 'dashed'],
    ]);
    expect((option.dataZoom as unknown[]).length).toBe(2);
    expect(chartOption({ spec: memory, lines, window, palette, compact: true }).dataZoom).toEqual([]);
    const [gpu] = CHARTS;
    if (!gpu) throw new Error('no GPU chart');
    expect(chartOption({ spec: gpu, lines: [], window, palette, compact: true }).yAxis).toMatchObject({ max: 100 });
  });

  it('writes the tooltip with the time, each line’s value and unit, and escapes names', () => {
    const [gpu] = CHARTS;
    if (!gpu) throw new Error('no GPU chart');
    const option = chartOption({ spec: gpu, lines: [], window: { start: 0, end: 60, step: 15 }, palette, compact: true });
    const formatter = (option.tooltip as { formatter: (params: unknown) => string }).formatter;
    const time = new Date(2026, 5, 1, 10, 5, 30).getTime();
    expect(
      formatter([
        { marker: '●', seriesName: 'GPU <0>', value: [time, 81.26] },
        { marker: '●', seriesName: 'GPU 1', value: [time, null] },
      ]),
    ).toBe('06-01 10:05:30<br/>●GPU &#60;0&#62;：81.3%');
  });
});
