import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IMAGE_NAME_MESSAGE, IMAGE_NAME_PATTERN, PRIVATE_IMAGE_ID_PATTERN, PRIVATE_IMAGE_QUOTA_GB } from '@slg/shared';
import { imageUsageSchema, privateImageSchema, savedImageSchema, sharesRemovedSchema } from '@slg/shared/views/images';
import { instanceViewSchema } from '@slg/shared/views/rental';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { telephoneField, text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { instanceIdField } from '../rental/routes.js';
import { ImageService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

const imageNameField = text('镜像名称').trim().regex(IMAGE_NAME_PATTERN, IMAGE_NAME_MESSAGE);
const privateImageIdField = text('镜像ID').regex(PRIVATE_IMAGE_ID_PATTERN, '镜像ID格式不正确');
const imageIdField = text('镜像').min(1, '请选择镜像').max(96, '镜像ID过长');
const imageUidField = z.uuid({ error: '镜像UID格式不正确' });

/** 我的镜像 and the instance operations that use images (reset, switch, save). */
export const imageRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const images = new ImageService(deps);
  // Before validation, as the other routes: a caller without the authority learns nothing about the body's rules.
  const containers = { preValidation: requireAuthority('CONTAINER') };
  const mirrors = { preValidation: requireAuthority('MIRROR') };
  const tags = ['镜像'];

  app.post(
    '/rental/reset',
    {
      ...containers,
      schema: {
        tags,
        summary: '重置系统（实例须已关机或异常）：系统盘按实例当前镜像重建，系统盘上的改动全部丢失，数据盘保留；完成后为已关机',
        body: z.object({ instanceId: instanceIdField }),
        response: { 200: envelopeOf(instanceViewSchema), ...errors },
      },
    },
    async (request) => ok(await images.reset(principalOf(request), request.body.instanceId)),
  );

  app.post(
    '/rental/switch_image/v2',
    {
      ...containers,
      schema: {
        tags,
        summary: '更换镜像（实例须已关机或异常）：公共镜像、自己的私有镜像或他人分享的镜像，CUDA 版本不得高于主机驱动支持的版本；系统盘重建，数据盘保留；完成后为已关机',
        body: z.object({ instanceId: instanceIdField, imageId: imageIdField }),
        response: { 200: envelopeOf(instanceViewSchema), ...errors },
      },
    },
    async (request) => ok(await images.switchImage(principalOf(request), request.body)),
  );

  app.post(
    '/rental/save_image',
    {
      ...containers,
      schema: {
        tags,
        summary: `保存镜像（实例须已关机）：把系统盘保存为私有镜像（不含数据盘），保存中实例不能开机；每个账号免费 ${PRIVATE_IMAGE_QUOTA_GB} GB，已用满时拒绝（40901），名称重复 40026`,
        body: z.object({ instanceId: instanceIdField, name: imageNameField.describe(IMAGE_NAME_MESSAGE) }),
        response: { 200: envelopeOf(savedImageSchema), ...errors },
      },
    },
    async (request) => ok(await images.save(principalOf(request), request.body)),
  );

  app.get(
    '/rental/private_image',
    {
      ...mirrors,
      schema: {
        tags,
        summary: '我的镜像：自己的私有镜像（最新在前），其后是他人分享给我的（带 sharedFrom）',
        querystring: pageQuery,
        response: { 200: envelopeOf(pageSchema(privateImageSchema)), ...errors },
      },
    },
    async (request) => ok(await images.list(principalOf(request), request.query)),
  );

  app.get(
    '/rental/private_image/size',
    {
      ...mirrors,
      schema: {
        tags,
        summary: `私有镜像已用容量与免费额度（${PRIVATE_IMAGE_QUOTA_GB} GB）：就绪镜像按大小计，保存中的按来源镜像大小计；不含他人分享的`,
        response: { 200: envelopeOf(imageUsageSchema), ...errors },
      },
    },
    async (request) => ok(await images.usage(principalOf(request))),
  );

  app.put(
    '/rental/private_image/rename',
    {
      ...mirrors,
      schema: {
        tags,
        summary: '重命名私有镜像（名称重复 40026）',
        body: z.object({ imageId: privateImageIdField, name: imageNameField.describe(IMAGE_NAME_MESSAGE) }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await images.rename(principalOf(request), request.body);
      return ok(null);
    },
  );

  app.delete(
    '/rental/private_image',
    {
      ...mirrors,
      schema: {
        tags,
        summary: '删除私有镜像（保存中的不能删除）：同时取消对他人的分享；已用该镜像创建的实例继续运行',
        querystring: z.object({ imageId: privateImageIdField }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await images.remove(principalOf(request), request.query.imageId);
      return ok(null);
    },
  );

  app.post(
    '/rental/share_image/share',
    {
      ...mirrors,
      schema: {
        tags,
        summary: '把就绪的私有镜像分享给另一个主账号（按手机号；未注册 40022，分享给自己 40000，重复分享 40901）：对方可用它创建实例或更换镜像，不能修改或删除',
        body: z.object({ imageId: privateImageIdField, telephone: telephoneField }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await images.share(principalOf(request), request.body);
      return ok(null);
    },
  );

  app.delete(
    '/rental/share_image/share_to_others',
    {
      ...mirrors,
      schema: {
        tags,
        summary: '取消我的镜像对所有人的分享（对方已创建的实例不受影响）',
        querystring: z.object({ imageUId: imageUidField }),
        response: { 200: envelopeOf(sharesRemovedSchema), ...errors },
      },
    },
    async (request) => ok(await images.stopSharing(principalOf(request), request.query.imageUId)),
  );

  app.delete(
    '/rental/share_image/share_from_other',
    {
      ...mirrors,
      schema: {
        tags,
        summary: '从我的列表中移除他人分享给我的镜像',
        querystring: z.object({ imageUId: imageUidField }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await images.leaveShared(principalOf(request), request.query.imageUId);
      return ok(null);
    },
  );
};
