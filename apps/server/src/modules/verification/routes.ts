import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { enterpriseViewSchema, personViewSchema, studentViewSchema, verificationStatusSchema } from '@slg/shared/views/verification';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireMainAccount } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { verificationBodies } from './fields.js';
import { VerificationService } from './service.js';
import { VERIFICATION_TEXTS } from './texts.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope };

/**
 * 实名认证 of the signed-in account. Submissions are the main account's (its identity), session-only
 * (an API token is for scripts, not for claiming an identity); the status is open to every account,
 * a sub-account seeing its main account's.
 */
export const verificationRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new VerificationService(deps);
  const bodies = verificationBodies(deps.now);
  const submit = { preValidation: requireMainAccount(VERIFICATION_TEXTS.mainAccountOnly), config: { sessionOnly: true } };
  const tags = ['实名认证'];

  app.get(
    '/verification/status',
    {
      config: { access: 'account' },
      schema: {
        tags,
        summary: '认证状态：个人、企业、学生认证各自最近一次申请（证件号脱敏）；子账号看到主账号的状态',
        response: { 200: envelopeOf(verificationStatusSchema), ...errors },
      },
    },
    async (request) => ok(await service.status(principalOf(request))),
  );

  app.post(
    '/verification/person',
    {
      ...submit,
      schema: {
        tags,
        summary: '提交个人认证：真实姓名与18位身份证号（格式、地区码、出生日期、校验位逐项检查）',
        body: bodies.person,
        response: { 200: envelopeOf(personViewSchema), ...errors },
      },
    },
    async (request) => ok(await service.submitPerson(principalOf(request), request.body)),
  );

  app.post(
    '/verification/enterprise',
    {
      ...submit,
      schema: {
        tags,
        summary: '提交企业认证：企业名称、统一社会信用代码（校验位检查）、法定代表人（选填）与营业执照',
        body: bodies.enterprise,
        response: { 200: envelopeOf(enterpriseViewSchema), ...errors },
      },
    },
    async (request) => {
      const { enterpriseName, creditCode, legalPerson, licenceUploadId } = request.body;
      return ok(
        await service.submitEnterprise(principalOf(request), { enterpriseName, creditCode, licenceUploadId, ...(legalPerson ? { legalPerson } : {}) }),
      );
    },
  );

  app.post(
    '/verification/student',
    {
      ...submit,
      schema: {
        tags,
        summary: '提交学生认证：真实姓名、学校、学号与学生证照片',
        body: bodies.student,
        response: { 200: envelopeOf(studentViewSchema), ...errors },
      },
    },
    async (request) => ok(await service.submitStudent(principalOf(request), request.body)),
  );
};
