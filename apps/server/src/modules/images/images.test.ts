import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { PRIVATE_IMAGE_QUOTA_GB } from '@slg/shared';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp, uniquePhone } from '../../../test/helpers.js';
import { hosts, instanceEvents, instances, privateImages, simImages, simMachines } from '../../db/schema/index.js';
import { Reconciler } from '../rental/reconciler.js';
import type { InstanceView } from '../rental/views.js';
import type { PrivateImageView } from './service.js';

let t: TestApp;
const PYTORCH = 'pytorch-2.5.1-py3.12-cu124';
const PYTORCH_GB = 14.2;
const TENSORFLOW = 'tensorflow-2.15.0-py3.10-cu122';
const MINICONDA = 'miniconda-conda3-py3.10-cu118';
/** Each test (or group of related tests) works on hosts of its own, so GPU counts never interfere. */
const HOST = 'bj-a-4090-02';

beforeAll(async () => {
  t = await createTestApp({
    env: { SIM_CREATE_SECONDS: '4', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2', SIM_REINSTALL_SECONDS: '6', SIM_SAVE_IMAGE_SECONDS: '10' },
  });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;

const settle = (seconds: number) => settleMachines(t, seconds);

type User = { telephone: string; jwtToken: string };

async function fundedUser(): Promise<User> {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, 10_000);
  return user;
}

const send = <T = unknown>(user: User, method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token: user.jwtToken, ...(payload ? { payload } : {}) });

async function detail(user: User, instanceId: string): Promise<InstanceView> {
  const found = await send<InstanceView>(user, 'GET', `/api/v1/rental/detail?instanceId=${instanceId}`);
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body.result;
}

async function created(user: User, imageId: string, hostId = HOST): Promise<string> {
  const answer = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId, gpuNum: 1, imageId, chargingRuleId: 1 });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  await settle(5);
  expect((await detail(user, answer.body.result.instanceId)).status).toBe('PoweredOn');
  return answer.body.result.instanceId;
}

/** A pay-as-you-go instance, created on the image and powered off. */
async function stopped(user: User, imageId = PYTORCH, hostId = HOST): Promise<string> {
  const instanceId = await created(user, imageId, hostId);
  expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
  await settle(3);
  expect((await detail(user, instanceId)).status).toBe('PoweredOff');
  return instanceId;
}

async function machine(instanceId: string) {
  const [row] = await db().select().from(simMachines).where(eq(simMachines.instanceId, instanceId));
  return row;
}

async function eventsOf(instanceId: string) {
  const [instance] = await db().select({ id: instances.id }).from(instances).where(eq(instances.instanceId, instanceId));
  return db()
    .select()
    .from(instanceEvents)
    .where(eq(instanceEvents.instanceRowId, instance?.id ?? 0))
    .orderBy(instanceEvents.id);
}

async function myImages(user: User): Promise<PrivateImageView[]> {
  const list = await send<{ list: PrivateImageView[]; total: number }>(user, 'GET', '/api/v1/rental/private_image?page=1&pageSize=50');
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  expect(list.body.result.total).toBe(list.body.result.list.length);
  return list.body.result.list;
}

async function usage(user: User): Promise<{ usedGb: number; quotaGb: number }> {
  const answer = await send<{ usedGb: number; quotaGb: number }>(user, 'GET', '/api/v1/rental/private_image/size');
  expect(answer.status).toBe(200);
  return answer.body.result;
}

/** Saves the stopped instance and lets the sim finish the save; returns the ready image. */
async function savedImage(user: User, instanceId: string, name: string): Promise<PrivateImageView> {
  const saved = await send<{ imageId: string }>(user, 'POST', '/api/v1/rental/save_image', { instanceId, name });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  await settle(11);
  const image = (await myImages(user)).find((item) => item.imageId === saved.body.result.imageId);
  expect(image?.status).toBe('ready');
  return image as PrivateImageView;
}

describe('reset and switch image', () => {
  it('rebuilds the system disk through the reconciler, keeps the data disk, ends powered off and records both events', async () => {
    const user = await fundedUser();
    const instanceId = await stopped(user);
    const before = await machine(instanceId);
    // What the user left on the data disk: the reset must not touch it.
    await db().update(simMachines).set({ dataDiskUsedGb: 7 }).where(eq(simMachines.instanceId, instanceId));

    const reset = await send<InstanceView>(user, 'POST', '/api/v1/rental/reset', { instanceId });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.result).toMatchObject({ status: 'ResetStarted', operation: 'reset' });
    // Rebuilding takes 6 s in the sim: one second in, it is still under way.
    await settle(1);
    expect(await detail(user, instanceId)).toMatchObject({ status: 'ResetStarted', operation: 'reset' });
    expect((await machine(instanceId))?.state).toBe('reinstalling');
    await settle(6);
    expect(await detail(user, instanceId)).toMatchObject({ status: 'PoweredOff', operation: null, imageId: PYTORCH, statusReason: null });
    const after = await machine(instanceId);
    expect(after).toMatchObject({ state: 'stopped', imageId: PYTORCH, dataDiskUsedGb: 7, dataDiskGb: before?.dataDiskGb, sshPort: before?.sshPort });
    const events = (await eventsOf(instanceId)).filter((event) => event.type === 'RESET_SYSTEM');
    expect(events.map((event) => [event.fromStatus, event.toStatus])).toEqual([
      ['PoweredOff', 'ResetStarted'],
      ['ResetStarted', 'PoweredOff'],
    ]);
    expect(events[1]?.detail).toContain('数据盘保留');

    // It powers on as before.
    expect((await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'gpu' })).status).toBe(200);
    await settle(3);
    expect((await detail(user, instanceId)).status).toBe('PoweredOn');
    const running = await send(user, 'POST', '/api/v1/rental/reset', { instanceId });
    expect(running.status).toBe(409);
    expect(running.body.rspmsg).toBe('实例当前状态为「运行中」，不能重置系统');
  });

  it('switches to another public image, which the instance list then names', async () => {
    const user = await fundedUser();
    const instanceId = await stopped(user);
    const switched = await send<InstanceView>(user, 'POST', '/api/v1/rental/switch_image/v2', { instanceId, imageId: TENSORFLOW });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect(switched.body.result.status).toBe('ResetStarted');
    // Another request while it runs is refused with what is under way.
    const again = await send(user, 'POST', '/api/v1/rental/reset', { instanceId });
    expect(again.status).toBe(409);
    expect(again.body.rspmsg).toBe('实例正在重置，请稍后再重置系统');
    await settle(7);
    const view = await detail(user, instanceId);
    expect(view).toMatchObject({ status: 'PoweredOff', imageId: TENSORFLOW, imageName: 'TensorFlow 2.15.0 (Python 3.10, CUDA 12.2, Ubuntu 22.04)' });
    expect((await machine(instanceId))?.imageId).toBe(TENSORFLOW);
    const events = (await eventsOf(instanceId)).filter((event) => event.type === 'SWITCH_IMAGE');
    expect(events).toHaveLength(2);
    expect(events[1]?.detail).toContain('更换镜像完成');
  });

  it('refuses images the host cannot run, unknown ones and another account’s private image', async () => {
    const user = await fundedUser();
    const other = await fundedUser();
    // RTX 3090 hosts drive CUDA up to 12.2.
    const instanceId = await stopped(user, TENSORFLOW, 'bj-a-3090-01');
    const tooNew = await send(user, 'POST', '/api/v1/rental/switch_image/v2', { instanceId, imageId: PYTORCH });
    expect(tooNew.status).toBe(400);
    expect(tooNew.body.rspmsg).toContain('镜像需要 CUDA 12.4，实例所在主机驱动最高支持 CUDA 12.2');
    const unknown = await send(user, 'POST', '/api/v1/rental/switch_image/v2', { instanceId, imageId: 'img-zzzzzzzzzzzz' });
    expect(unknown.status).toBe(404);

    const othersImage = await savedImage(other, await stopped(other, MINICONDA, 'bj-a-3090-02'), '别人的镜像');
    const foreign = await send(user, 'POST', '/api/v1/rental/switch_image/v2', { instanceId, imageId: othersImage.imageId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.rspmsg).toBe('镜像不存在或已下架，请重新选择');
    const foreignCreate = await send(user, 'POST', '/api/v1/rental', { hostId: 'bj-a-3090-01', gpuNum: 1, imageId: othersImage.imageId, chargingRuleId: 1 });
    expect(foreignCreate.status).toBe(404);
    expect((await detail(user, instanceId)).status).toBe('PoweredOff');
  });

  it('turns a reset the host refuses into Error with the reason, and a later reset recovers it', async () => {
    const user = await fundedUser();
    const hostId = 'bj-a-4090-03';
    const instanceId = await stopped(user, PYTORCH, hostId);
    await db().update(hosts).set({ simFault: 'error', simFaultReason: '系统盘控制器故障' }).where(eq(hosts.id, hostId));
    try {
      expect((await send(user, 'POST', '/api/v1/rental/reset', { instanceId })).status).toBe(200);
      await settle(1);
      expect(await detail(user, instanceId)).toMatchObject({ status: 'Error', operation: null, statusReason: '系统盘控制器故障' });
      const failed = (await eventsOf(instanceId)).at(-1);
      expect(failed).toMatchObject({ type: 'RESET_SYSTEM', toStatus: 'Error', detail: '重置系统失败：系统盘控制器故障' });
    } finally {
      await db().update(hosts).set({ simFault: null, simFaultReason: null }).where(eq(hosts.id, hostId));
    }
    // Error allows a reset (and a power-on): the machine is fine again.
    expect((await send(user, 'POST', '/api/v1/rental/reset', { instanceId })).status).toBe(200);
    await settle(7);
    expect(await detail(user, instanceId)).toMatchObject({ status: 'PoweredOff', statusReason: null });
  });
});

describe('saving images', () => {
  it('refuses a running instance, saves a stopped one (saving → ready with its size) and blocks power-on and delete meanwhile', async () => {
    const user = await fundedUser();
    const instanceId = await created(user, PYTORCH, 'bj-a-4090-04');
    const running = await send(user, 'POST', '/api/v1/rental/save_image', { instanceId, name: '我的环境' });
    expect(running.status).toBe(409);
    expect(running.body.rspmsg).toBe('实例当前状态为「运行中」，不能保存镜像');
    expect(await db().$count(privateImages)).toBeGreaterThanOrEqual(0);
    expect(await myImages(user)).toEqual([]);

    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
    await settle(3);
    const saved = await send<{ imageId: string }>(user, 'POST', '/api/v1/rental/save_image', { instanceId, name: ' 我的环境 ' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const { imageId } = saved.body.result;
    expect(imageId).toMatch(/^img-[a-z0-9]{12}$/);
    expect(await detail(user, instanceId)).toMatchObject({ status: 'PoweredOff', operation: 'save_image' });
    const [saving] = await myImages(user);
    expect(saving).toMatchObject({ imageId, name: '我的环境', status: 'saving', sizeGb: PYTORCH_GB, cuda: '12.4', baseImageId: PYTORCH, shareCount: 0 });
    expect(saving?.sharedFrom).toBeUndefined();
    // A saving image counts with the size it is saved from.
    expect(await usage(user)).toEqual({ usedGb: PYTORCH_GB, quotaGb: PRIVATE_IMAGE_QUOTA_GB });

    const powerOn = await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'gpu' });
    expect(powerOn.status).toBe(409);
    expect(powerOn.body.rspmsg).toBe('实例正在保存镜像，请稍后再开机');
    const remove = await send(user, 'DELETE', `/api/v1/rental/private_image?imageId=${imageId}`);
    expect(remove.status).toBe(409);
    expect(remove.body.rspmsg).toBe('镜像「我的环境」正在保存，保存完成后才能删除');

    await settle(5);
    expect((await myImages(user))[0]?.status).toBe('saving');
    await settle(6);
    const [ready] = await myImages(user);
    expect(ready?.status).toBe('ready');
    // The sim's image: its base plus 0.4–3.0 GB installed.
    expect(ready?.sizeGb).toBeGreaterThanOrEqual(PYTORCH_GB + 0.4);
    expect(ready?.sizeGb).toBeLessThanOrEqual(PYTORCH_GB + 3.0);
    expect((await usage(user)).usedGb).toBe(ready?.sizeGb);
    expect(await detail(user, instanceId)).toMatchObject({ status: 'PoweredOff', operation: null });
    const done = (await eventsOf(instanceId)).filter((event) => event.type === 'SAVE_IMAGE').map((event) => event.detail);
    expect(done).toEqual(['保存镜像「我的环境」', `保存镜像完成：我的环境（${ready?.sizeGb} GB）`]);

    // The image builds instances: the list names it, the driver got the image's uid.
    const fromImage = await created(user, imageId, 'bj-a-4090-04');
    expect(await detail(user, fromImage)).toMatchObject({ imageId, imageName: '我的环境' });
    expect((await machine(fromImage))?.imageId).toBe(ready?.imageUId);
    // And a reset of such an instance rebuilds from it.
    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId: fromImage })).status).toBe(200);
    await settle(3);
    expect((await send(user, 'POST', '/api/v1/rental/reset', { instanceId: fromImage })).status).toBe(200);
    await settle(7);
    expect(await detail(user, fromImage)).toMatchObject({ status: 'PoweredOff', imageId, imageName: '我的环境' });

    // Deleting it: gone from the list, the quota and the registry; the instance built from it keeps its image name.
    expect((await send(user, 'DELETE', `/api/v1/rental/private_image?imageId=${imageId}`)).status).toBe(200);
    expect(await myImages(user)).toEqual([]);
    expect((await usage(user)).usedGb).toBe(0);
    expect(await db().$count(simImages, eq(simImages.uid, ready?.imageUId ?? ''))).toBe(0);
    expect((await detail(user, fromImage)).imageName).toBe('我的环境');
    const resetDeleted = await send(user, 'POST', '/api/v1/rental/reset', { instanceId: fromImage });
    expect(resetDeleted.status).toBe(409);
    expect(resetDeleted.body.rspmsg).toContain('请使用「更换镜像」');
    const deletedAgain = await send(user, 'DELETE', `/api/v1/rental/private_image?imageId=${imageId}`);
    expect(deletedAgain.status).toBe(404);
  });

  it('marks the image failed and leaves the instance powered off when the host fails during a save', async () => {
    const user = await fundedUser();
    const hostId = 'bj-a-4090-05';
    const instanceId = await stopped(user, MINICONDA, hostId);
    await db().update(hosts).set({ simFault: 'error', simFaultReason: '镜像仓库写入失败' }).where(eq(hosts.id, hostId));
    try {
      expect((await send(user, 'POST', '/api/v1/rental/save_image', { instanceId, name: '会失败' })).status).toBe(200);
      await settle(1);
    } finally {
      await db().update(hosts).set({ simFault: null, simFaultReason: null }).where(eq(hosts.id, hostId));
    }
    expect(await detail(user, instanceId)).toMatchObject({ status: 'PoweredOff', operation: null, statusReason: '保存镜像失败：镜像仓库写入失败' });
    const [failed] = await myImages(user);
    expect(failed).toMatchObject({ name: '会失败', status: 'failed', statusReason: '镜像仓库写入失败', sizeGb: 0 });
    expect((await usage(user)).usedGb).toBe(0);
    // A failed image cannot be used, but can be deleted; the instance powers on.
    const use = await send(user, 'POST', '/api/v1/rental/switch_image/v2', { instanceId, imageId: failed?.imageId });
    expect(use.status).toBe(409);
    expect((await send(user, 'DELETE', `/api/v1/rental/private_image?imageId=${failed?.imageId}`)).status).toBe(200);
    expect((await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'gpu' })).status).toBe(200);
  });

  it('refuses a save once the account’s images use the free quota, naming used and quota', async () => {
    const user = await fundedUser();
    const instanceId = await stopped(user, PYTORCH, 'bj-a-4090-06');
    // Saved sizes vary with the image, so save until the quota is reached (every save is allowed while below it).
    let usedTenths = 0;
    let saved = 0;
    while (usedTenths < PRIVATE_IMAGE_QUOTA_GB * 10) {
      const image = await savedImage(user, instanceId, `镜像${saved + 1}`);
      usedTenths += Math.round(image.sizeGb * 10);
      saved += 1;
    }
    expect(saved).toBeGreaterThanOrEqual(2);
    const used = usedTenths / 10;
    expect((await usage(user)).usedGb).toBe(used);
    const refused = await send(user, 'POST', '/api/v1/rental/save_image', { instanceId, name: '超出额度' });
    expect(refused.status).toBe(409);
    expect(refused.body.rspmsg).toBe(`私有镜像已使用 ${used} GB，已达免费额度 ${PRIVATE_IMAGE_QUOTA_GB} GB，请先删除不再使用的镜像再保存`);
    expect(await myImages(user)).toHaveLength(saved);
    expect(await detail(user, instanceId)).toMatchObject({ operation: null });
  });
});

describe('managing images', () => {
  it('renames, refusing a duplicate name with 40026 and bad names with a message', async () => {
    const user = await fundedUser();
    const instanceId = await stopped(user, MINICONDA, 'bj-a-4090-07');
    const a = await savedImage(user, instanceId, '镜像A');
    await savedImage(user, instanceId, '镜像B');
    const duplicate = await send(user, 'PUT', '/api/v1/rental/private_image/rename', { imageId: a.imageId, name: '镜像B' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ rspcode: 40026, rspmsg: '名称已存在，请重新输入' });
    const saveDuplicate = await send(user, 'POST', '/api/v1/rental/save_image', { instanceId, name: '镜像A' });
    expect(saveDuplicate.body).toMatchObject({ rspcode: 40026 });
    expect(await detail(user, instanceId)).toMatchObject({ operation: null });
    const control = await send(user, 'PUT', '/api/v1/rental/private_image/rename', { imageId: a.imageId, name: 'a\nb' });
    expect(control.status).toBe(400);
    expect(control.body.rspmsg).toContain('镜像名称为1-32个字符');
    const tooLong = await send(user, 'PUT', '/api/v1/rental/private_image/rename', { imageId: a.imageId, name: 'x'.repeat(33) });
    expect(tooLong.status).toBe(400);
    expect((await send(user, 'PUT', '/api/v1/rental/private_image/rename', { imageId: a.imageId, name: '镜像C' })).status).toBe(200);
    expect((await myImages(user)).map((image) => image.name).sort()).toEqual(['镜像B', '镜像C']);
    // Another account's image is not found.
    const other = await fundedUser();
    expect((await send(other, 'PUT', '/api/v1/rental/private_image/rename', { imageId: a.imageId, name: '抢走' })).status).toBe(404);
    expect((await send(other, 'DELETE', `/api/v1/rental/private_image?imageId=${a.imageId}`)).status).toBe(404);
  });

  it('shares by phone: the recipient sees and uses it, a third account does not; cancelling and removing end it', async () => {
    const owner = await fundedUser();
    const recipient = await fundedUser();
    const third = await fundedUser();
    const hostId = 'bj-a-4090-08';
    const image = await savedImage(owner, await stopped(owner, MINICONDA, hostId), '共享环境');

    const toSelf = await send(owner, 'POST', '/api/v1/rental/share_image/share', { imageId: image.imageId, telephone: owner.telephone });
    expect(toSelf.status).toBe(400);
    expect(toSelf.body.rspmsg).toBe('不能分享给自己的账号');
    const nobody = uniquePhone();
    const unknown = await send(owner, 'POST', '/api/v1/rental/share_image/share', { imageId: image.imageId, telephone: nobody });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ rspcode: 40022 });
    expect(unknown.body.rspmsg).toContain('未注册本平台主账号');
    expect((await send(owner, 'POST', '/api/v1/rental/share_image/share', { imageId: image.imageId, telephone: recipient.telephone })).status).toBe(200);
    const twice = await send(owner, 'POST', '/api/v1/rental/share_image/share', { imageId: image.imageId, telephone: recipient.telephone });
    expect(twice.status).toBe(409);
    expect(twice.body.rspmsg).toContain('已分享给');
    expect((await myImages(owner))[0]?.shareCount).toBe(1);

    const seen = await myImages(recipient);
    const masked = `${owner.telephone.slice(0, 3)}****${owner.telephone.slice(7)}`;
    expect(seen).toEqual([expect.objectContaining({ imageId: image.imageId, name: '共享环境', status: 'ready', sharedFrom: masked })]);
    // Shared images do not count against the recipient's quota.
    expect((await usage(recipient)).usedGb).toBe(0);
    // Only the owner renames or deletes it.
    expect((await send(recipient, 'PUT', '/api/v1/rental/private_image/rename', { imageId: image.imageId, name: '改名' })).status).toBe(404);

    const built = await created(recipient, image.imageId, hostId);
    expect(await detail(recipient, built)).toMatchObject({ imageId: image.imageId, imageName: '共享环境' });
    const thirdCreate = await send(third, 'POST', '/api/v1/rental', { hostId, gpuNum: 1, imageId: image.imageId, chargingRuleId: 1 });
    expect(thirdCreate.status).toBe(404);
    expect((await myImages(third)).length).toBe(0);

    // The recipient removes it from their list: no longer usable.
    expect((await send(recipient, 'DELETE', `/api/v1/rental/share_image/share_from_other?imageUId=${image.imageUId}`)).status).toBe(200);
    expect(await myImages(recipient)).toEqual([]);
    const afterRemove = await send(recipient, 'POST', '/api/v1/rental', { hostId, gpuNum: 1, imageId: image.imageId, chargingRuleId: 1 });
    expect(afterRemove.status).toBe(404);
    expect((await send(recipient, 'DELETE', `/api/v1/rental/share_image/share_from_other?imageUId=${image.imageUId}`)).status).toBe(404);

    // Shared again, then the owner stops sharing with everyone.
    expect((await send(owner, 'POST', '/api/v1/rental/share_image/share', { imageId: image.imageId, telephone: recipient.telephone })).status).toBe(200);
    expect((await send(owner, 'POST', '/api/v1/rental/share_image/share', { imageId: image.imageId, telephone: third.telephone })).status).toBe(200);
    const cancelled = await send<{ removed: number }>(owner, 'DELETE', `/api/v1/rental/share_image/share_to_others?imageUId=${image.imageUId}`);
    expect(cancelled.body.result).toEqual({ removed: 2 });
    expect(await myImages(recipient)).toEqual([]);
    expect(await myImages(third)).toEqual([]);
    // Not the recipient's to cancel.
    expect((await send(recipient, 'DELETE', `/api/v1/rental/share_image/share_to_others?imageUId=${image.imageUId}`)).status).toBe(404);

    // Deleting the image leaves the recipient's instance running.
    expect((await send(owner, 'DELETE', `/api/v1/rental/private_image?imageId=${image.imageId}`)).status).toBe(200);
    await new Reconciler(t.deps).watch();
    expect((await detail(recipient, built)).status).toBe('PoweredOn');
  });
});

describe('concurrent saves (decisive on PostgreSQL)', () => {
  it('lets exactly one of two saves with the same name through; the other is 40026', async () => {
    const user = await fundedUser();
    const hostId = 'bj-a-3090-03';
    const first = await stopped(user, MINICONDA, hostId);
    const second = await stopped(user, MINICONDA, hostId);
    const answers = await Promise.all([first, second].map((instanceId) => send(user, 'POST', '/api/v1/rental/save_image', { instanceId, name: '同名' })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.rspcode).toBe(40026);
    const [owner] = await db().select({ ownerId: privateImages.ownerId }).from(privateImages).where(eq(privateImages.name, '同名'));
    expect(await db().$count(privateImages, and(eq(privateImages.ownerId, owner?.ownerId ?? 0), eq(privateImages.name, '同名')))).toBe(1);
    // Only the instance whose save went through has the operation.
    const operations = await Promise.all([first, second].map(async (instanceId) => (await detail(user, instanceId)).operation));
    expect(operations.sort()).toEqual([null, 'save_image']);
  });

  it('never lets two concurrent saves pass the quota together', async () => {
    const user = await fundedUser();
    const hostId = 'bj-a-4090-01';
    const [a, m, b, c] = [await stopped(user, PYTORCH, hostId), await stopped(user, MINICONDA, hostId), await stopped(user, PYTORCH, hostId), await stopped(user, PYTORCH, hostId)];
    // 19.2–24.4 GB used: below the quota, but one more PyTorch save (counted at 14.2 GB while saving) reaches it.
    const big = await savedImage(user, a, '大镜像');
    const small = await savedImage(user, m, '小镜像');
    const used = big.sizeGb + small.sizeGb;
    expect(used).toBeLessThan(PRIVATE_IMAGE_QUOTA_GB);
    expect(used + PYTORCH_GB).toBeGreaterThanOrEqual(PRIVATE_IMAGE_QUOTA_GB);
    const answers = await Promise.all([
      send(user, 'POST', '/api/v1/rental/save_image', { instanceId: b, name: '并发一' }),
      send(user, 'POST', '/api/v1/rental/save_image', { instanceId: c, name: '并发二' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.rspmsg).toContain('已达免费额度');
    expect(await myImages(user)).toHaveLength(3);
  });
});

describe('authority', () => {
  it('answers 401 without a token', async () => {
    const answer = await call(t.app, { method: 'GET', url: '/api/v1/rental/private_image' });
    expect(answer.status).toBe(401);
  });

  it('keeps the image list fresh across token renewals', async () => {
    const user = await fundedUser();
    user.jwtToken = await loginToken(t, user.telephone);
    expect(await usage(user)).toEqual({ usedGb: 0, quotaGb: PRIVATE_IMAGE_QUOTA_GB });
  });
});
