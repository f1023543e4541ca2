/** 跨实例拷贝: targets of the region, the path and its effect before confirming, progress until done, 取消拷贝 with its effect named, errors once. */
import { useQuery } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DATA_DISK_MOUNT_PATH } from '@slg/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchInstances, INSTANCES_FAST_POLL_MS, INSTANCES_SLOW_POLL_MS, instancesPollInterval, type InstanceView } from '../../../../api/compute';
import { COPY_POLL_MS, copyTasksPollInterval, type CopyTask } from '../../../../api/copyData';
import { queryKeys } from '../../../../api/queryKeys';
import { buttonByText, buttonsByText, callsTo, failure, findDialog, mockApi, ok, page, renderPage } from '../../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../../testing';
import { CopyDataDialog, CopyProgress, copyTargetsOf } from './CopyDataDialog';
import { InstanceStatus } from './InstanceStatus';

afterEach(() => cleanup());

const SOURCE: InstanceView = { ...RUNNING_INSTANCE, copyTask: null };
const TARGET: InstanceView = { ...SOURCE, instanceId: 'slg-bbbbbbbbbb', name: '推理机', status: 'PoweredOff', sshCommand: null };
const FARAWAY: InstanceView = { ...SOURCE, instanceId: 'slg-cccccccccc', name: '内蒙机', zoneId: 'nm-b', zoneName: '内蒙B区' };
const CREATING: InstanceView = { ...SOURCE, instanceId: 'slg-dddddddddd', name: '新机器', status: 'CreationStarted', operation: 'create' };
const RECEIVING: InstanceView = { ...SOURCE, instanceId: 'slg-eeeeeeeeee', name: '忙碌机', copyTask: { taskId: 'task-9', role: 'target', peerInstanceId: 'slg-ffffffffff', progress: 10, path: DATA_DISK_MOUNT_PATH } };
const ALL = [SOURCE, TARGET, FARAWAY, CREATING, RECEIVING];

function task(overrides: Partial<CopyTask>): CopyTask {
  return {
    taskId: 'task-1',
    role: 'source',
    fromInstanceId: SOURCE.instanceId,
    fromInstanceName: SOURCE.name,
    toInstanceId: TARGET.instanceId,
    toInstanceName: TARGET.name,
    peerInstanceId: TARGET.instanceId,
    peerInstanceName: TARGET.name,
    path: `${DATA_DISK_MOUNT_PATH}/datasets`,
    status: 'running',
    statusReason: null,
    progress: 0,
    totalGb: 30,
    copiedGb: 0,
    createdAt: '2026-06-01T02:00:00Z',
    finishedAt: null,
    ...overrides,
  };
}

function show(routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /rental': () => page(ALL), 'GET /rental/copy_data': () => ok([]), ...routes });
  renderPage(<CopyDataDialog instance={SOURCE} open onClose={() => undefined} />);
  return api;
}

async function chooseTarget(dialog: HTMLElement) {
  fireEvent.mouseDown(await within(dialog).findByLabelText('目标实例'));
  fireEvent.click(await screen.findByText('推理机（slg-bbbbbbbbbb）'));
}

function typePath(dialog: HTMLElement, value: string) {
  fireEvent.change(within(dialog).getByLabelText('拷贝路径'), { target: { value } });
}

describe('CopyDataDialog', () => {
  // Waits for a real poll (COPY_POLL_MS) on top of rendering the dialog: more than the default 5 s on a busy machine.
  it('offers only the region’s instances that can take a copy, names the effect, sends the copy and follows it until done', async () => {
    let started = false;
    let finished = false;
    const { fetchMock, notify } = show({
      'POST /rental/copy_data': () => {
        started = true;
        return ok(task({}));
      },
      'GET /rental/copy_data': () => {
        if (!started) return ok([]);
        return ok([finished ? task({ status: 'done', progress: 100, copiedGb: 30, finishedAt: '2026-06-01T02:00:30Z' }) : task({ progress: 45, copiedGb: 13.5 })]);
      },
    });
    const dialog = await findDialog();
    expect(await within(dialog).findByText('暂无拷贝记录')).toBeTruthy();
    expect(buttonByText('开始拷贝（覆盖同名文件）', dialog).disabled).toBe(true);

    fireEvent.mouseDown(await within(dialog).findByLabelText('目标实例'));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([TARGET.instanceId]);
    for (const other of [FARAWAY, CREATING, RECEIVING]) expect(screen.queryByText(`${other.name}（${other.instanceId}）`)).toBeNull();
    fireEvent.click(await screen.findByText('推理机（slg-bbbbbbbbbb）'));

    typePath(dialog, `${DATA_DISK_MOUNT_PATH}/datasets/`);
    expect(
      await within(dialog).findByText(`将拷贝本实例的 ${DATA_DISK_MOUNT_PATH}/datasets 到「推理机」的相同路径，目标实例中已有的同名文件会被覆盖，其他文件保留。拷贝期间请勿在两台实例上修改该路径下的数据。`),
    ).toBeTruthy();
    fireEvent.click(buttonByText('开始拷贝（覆盖同名文件）', dialog));

    await within(dialog).findByText('拷贝到 推理机（slg-bbbbbbbbbb）');
    expect(await within(dialog).findByLabelText('拷贝中 45%')).toBeTruthy();
    expect(within(dialog).getByText(/13\.5 \/ 30 GB/)).toBeTruthy();
    // Polled while it runs, until the server says it is done.
    finished = true;
    await within(dialog).findByLabelText('已完成 100%', undefined, { timeout: COPY_POLL_MS + 2_000 });
    const bodies = callsTo(fetchMock, 'POST', '/rental/copy_data').map(([, init]) => JSON.parse(String(init?.body)) as unknown);
    expect(bodies).toEqual([{ fromInstanceId: SOURCE.instanceId, toInstanceId: TARGET.instanceId, path: `${DATA_DISK_MOUNT_PATH}/datasets` }]);
    expect(notify).not.toHaveBeenCalledWith(expect.stringContaining('失败'));
  });

  it('keeps a path off the data disk from being sent, with the reason on the field', async () => {
    const { fetchMock } = show();
    const dialog = await findDialog();
    expect((within(dialog).getByLabelText('拷贝路径') as HTMLInputElement).value).toBe(DATA_DISK_MOUNT_PATH);
    await chooseTarget(dialog);
    typePath(dialog, '/etc/passwd');
    expect(await within(dialog).findByText(`只能拷贝数据盘中的数据：路径须以 ${DATA_DISK_MOUNT_PATH} 开头`)).toBeTruthy();
    expect(buttonByText('开始拷贝（覆盖同名文件）', dialog).disabled).toBe(true);
    typePath(dialog, `${DATA_DISK_MOUNT_PATH}/../etc`);
    expect(await within(dialog).findByText('路径不能包含 . 或 .. 目录')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/rental/copy_data')).toHaveLength(0);
  });

  it('shows the server’s refusal once, in the dialog, with failed copies and their reason in the history', async () => {
    const refusal = '跨实例拷贝失败：目标实例数据盘空间不足：需要 40 GB，剩余 20 GB';
    const { notify } = show({
      'POST /rental/copy_data': () => failure(409, 40901, refusal),
      'GET /rental/copy_data': () => ok([task({ status: 'failed', progress: 0, statusReason: '目标实例的数据盘已不存在', finishedAt: '2026-06-01T02:00:10Z' })]),
    });
    const dialog = await findDialog();
    expect(await within(dialog).findByText('失败：目标实例的数据盘已不存在')).toBeTruthy();
    await chooseTarget(dialog);
    fireEvent.click(buttonByText('开始拷贝（覆盖同名文件）', dialog));
    await within(dialog).findByText(refusal);
    expect(screen.getAllByText(refusal)).toHaveLength(1);
    expect(notify).not.toHaveBeenCalled();
  });

  it('says so when no instance of the region can take a copy, and shows a failed list load with a retry', async () => {
    mockApi({ 'GET /rental': () => page([SOURCE, FARAWAY]), 'GET /rental/copy_data': () => failure(503, 50300, '服务暂不可用') });
    renderPage(<CopyDataDialog instance={SOURCE} open onClose={() => undefined} />);
    const dialog = await findDialog();
    expect(await within(dialog).findByText(/北京A区没有其他可以接收数据的实例/)).toBeTruthy();
    expect(await within(dialog).findByText('拷贝记录加载失败')).toBeTruthy();
  });
});

const CANCEL_EFFECT = '已拷贝的部分保留在目标实例上，未拷贝的不再拷贝；需要完整数据时请重新拷贝。';

/** The confirm of 取消拷贝: the dialog titled so, once the trigger was clicked. */
async function cancelDialog(): Promise<HTMLElement> {
  const title = await screen.findByText('将停止把', { exact: false });
  const dialog = title.closest<HTMLElement>('.ant-modal');
  if (!dialog) throw new Error('no 取消拷贝 dialog');
  return dialog;
}

describe('取消拷贝', () => {
  it('asks first, naming the effect; 继续拷贝 sends nothing; confirming cancels and the history shows it cancelled with what stays', async () => {
    let cancelled = false;
    const { fetchMock, notify } = show({
      'GET /rental/copy_data': () => ok([cancelled ? task({ status: 'cancelled', statusReason: '已取消', progress: 40, copiedGb: 12, finishedAt: '2026-06-01T02:00:12Z' }) : task({ progress: 40, copiedGb: 12 })]),
      'DELETE /rental/copy_data': () => {
        cancelled = true;
        return ok(task({ status: 'cancelled', statusReason: '已取消', progress: 40, copiedGb: 12 }));
      },
    });
    const dialog = await findDialog();
    expect(await within(dialog).findByLabelText('拷贝中 40%')).toBeTruthy();

    fireEvent.click(buttonByText('取消拷贝', dialog));
    let confirm = await cancelDialog();
    expect(within(confirm).getByText(`将停止把「训练机」的 ${DATA_DISK_MOUNT_PATH}/datasets 拷贝到「推理机」。`)).toBeTruthy();
    expect(within(confirm).getByText(CANCEL_EFFECT)).toBeTruthy();
    fireEvent.click(buttonByText('继续拷贝', confirm));
    expect(callsTo(fetchMock, 'DELETE', '/rental/copy_data')).toHaveLength(0);

    fireEvent.click(buttonByText('取消拷贝', dialog));
    confirm = await cancelDialog();
    fireEvent.click(buttonByText('取消拷贝', confirm));
    expect(await within(dialog).findByText('已拷贝的 12 GB 保留在目标实例上，其余未拷贝')).toBeTruthy();
    expect(within(dialog).getByText(/已取消 · 12 \/ 30 GB/)).toBeTruthy();
    expect(buttonsByText('取消拷贝', dialog)).toHaveLength(0);
    const calls = callsTo(fetchMock, 'DELETE', '/rental/copy_data');
    expect(calls).toHaveLength(1);
    expect(new URL(String(calls[0]?.[0]), 'http://localhost').searchParams.get('taskId')).toBe('task-1');
    expect(await screen.findByText('已取消拷贝，已拷贝的部分保留在目标实例上')).toBeTruthy();
    expect(notify).not.toHaveBeenCalled();
  });

  it('offers 取消拷贝 next to the progress on the instance row; a copy that ended meanwhile is refused once and the row refreshes', async () => {
    const refusal = '拷贝任务已完成，无法取消（数据已全部拷贝到目标实例）';
    let ended = false;
    const { fetchMock, notify } = mockApi({
      'DELETE /rental/copy_data': () => {
        ended = true;
        return failure(409, 40901, refusal);
      },
      'GET /rental': () => page([{ ...RECEIVING, copyTask: ended ? null : RECEIVING.copyTask }]),
    });
    function Row() {
      const list = useQuery({ queryKey: [...queryKeys.instances, 'row-test'], queryFn: () => fetchInstances({ page: 1, pageSize: 10 }) });
      const instance = list.data?.list[0];
      return instance ? <InstanceStatus instance={instance} /> : null;
    }
    renderPage(<Row />);
    expect(await screen.findByText('拷贝中 10%')).toBeTruthy();
    fireEvent.click(buttonByText('取消拷贝'));
    const confirm = await cancelDialog();
    // The instance is the target: the copy comes from its peer.
    expect(within(confirm).getByText(`将停止把「slg-ffffffffff」的 ${DATA_DISK_MOUNT_PATH} 拷贝到「忙碌机」。`)).toBeTruthy();
    expect(within(confirm).getByText(CANCEL_EFFECT)).toBeTruthy();
    fireEvent.click(buttonByText('取消拷贝', confirm));
    await waitFor(() => expect(screen.queryByText('拷贝中 10%')).toBeNull());
    expect(notify).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith(refusal);
    expect(callsTo(fetchMock, 'DELETE', '/rental/copy_data')).toHaveLength(1);
  });
});

describe('CopyProgress', () => {
  it('shows 拷贝中 with the progress while a copy runs, and nothing otherwise', () => {
    mockApi({});
    const { container, rerender } = renderPage(<CopyProgress instance={{ name: SOURCE.name, copyTask: { taskId: 'task-1', role: 'source', peerInstanceId: TARGET.instanceId, progress: 45, path: DATA_DISK_MOUNT_PATH } }} />);
    expect(screen.getByText('拷贝中 45%')).toBeTruthy();
    expect(screen.getByLabelText(`拷贝中 45%，正在把 ${DATA_DISK_MOUNT_PATH} 拷贝到 ${TARGET.instanceId}`)).toBeTruthy();
    expect(buttonByText('取消拷贝')).toBeTruthy();
    rerender(<CopyProgress instance={{ name: SOURCE.name, copyTask: null }} />);
    expect(container.textContent).toBe('');
  });
});

describe('copy rules of the console', () => {
  it('chooses targets in the region that can take a copy and are not receiving one', () => {
    expect(copyTargetsOf(SOURCE, ALL).map((item) => item.instanceId)).toEqual([TARGET.instanceId]);
  });

  it('polls the copies while one runs, and the instance list fast while any instance copies', () => {
    expect(copyTasksPollInterval([task({})])).toBe(COPY_POLL_MS);
    expect(copyTasksPollInterval([task({ status: 'done' })])).toBe(false);
    expect(copyTasksPollInterval(undefined)).toBe(false);
    const pageOf = (list: InstanceView[]) => ({ list, total: list.length, page: 1, pageSize: 10 });
    expect(instancesPollInterval(pageOf([SOURCE]))).toBe(INSTANCES_SLOW_POLL_MS);
    expect(instancesPollInterval(pageOf([SOURCE, RECEIVING]))).toBe(INSTANCES_FAST_POLL_MS);
  });
});
