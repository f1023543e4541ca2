import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_SSH_KEYS, SSH_KEY_NAME_MESSAGE, SSH_KEY_NAME_PATTERN } from '@slg/shared';
import { sshKeySchema } from '@slg/shared/views/ssh-keys';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { SshKeyService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope };

const keyNameField = text('名称').trim().regex(SSH_KEY_NAME_PATTERN, SSH_KEY_NAME_MESSAGE);

const createBody = z.object({
  key: text('公钥').describe('OpenSSH 公钥：.pub 文件的一行，如 ssh-ed25519 AAAAC3… user@host；支持 ed25519、ECDSA、RSA（至少2048位）'),
  keyName: keyNameField.describe(SSH_KEY_NAME_MESSAGE),
});

/** SSH公钥: kept per user; instances created afterwards get them in root's authorized_keys. */
export const sshKeyRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new SshKeyService(deps);
  // Before validation, as the instance routes: a caller without the authority learns nothing about the body's rules.
  const containers = { preValidation: requireAuthority('CONTAINER') };
  const tags = ['SSH公钥'];

  app.get(
    '/ssh_key',
    {
      ...containers,
      schema: {
        tags,
        summary: `我的SSH公钥（最新在前；每人最多${MAX_SSH_KEYS}个）`,
        querystring: pageQuery,
        response: { 200: envelopeOf(pageSchema(sshKeySchema)), ...errors },
      },
    },
    async (request) => ok(await service.list(principalOf(request), request.query)),
  );

  app.post(
    '/ssh_key',
    {
      ...containers,
      schema: {
        tags,
        summary: `添加SSH公钥：之后创建的实例会写入 root 的 authorized_keys，已有实例不变。名称重复 40026，公钥重复 40027，超过${MAX_SSH_KEYS}个 40901`,
        body: createBody,
        response: { 200: envelopeOf(sshKeySchema), ...errors },
      },
    },
    async (request) => ok(await service.add(principalOf(request), request.body)),
  );

  app.delete(
    '/ssh_key',
    {
      ...containers,
      schema: {
        tags,
        summary: '删除SSH公钥：之后创建的实例不再写入它，已创建的实例不变',
        querystring: z.object({ keyName: keyNameField }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await service.remove(principalOf(request), request.query.keyName);
      return ok(null);
    },
  );
};
