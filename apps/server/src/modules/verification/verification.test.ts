import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCodes, IDENTITY_MESSAGES as M } from '@slg/shared';
import { call, createTestApp, loginToken, rechargeThroughSandbox, type TestApp } from '../../../test/helpers.js';
import { auditLogs, verifications } from '../../db/schema/index.js';
import { Reconciler } from '../rental/reconciler.js';
import { makeOperator } from '../invoices/test-factories.js';
import { mainAccount, PDF, subAccountToken, uploaded, type Account } from './test-factories.js';

let t: TestApp;
let dataDir: string;
let operator: Account;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'slg-verification-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  operator = await mainAccount(t);
  await makeOperator(t.deps.database.db, operator.telephone);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const db = () => t.deps.database.db;
type Method = 'GET' | 'POST';
const send = <T = unknown>(app: TestApp, token: string, method: Method, url: string, payload?: Record<string, unknown>) =>
  call<T>(app.app, { method, url, token, ...(payload ? { payload } : {}) });

const VALID_ID = '11010519491231002X';
const VALID_CODE = '91350100M000100Y43';

interface View {
  id: number;
  kind: string;
  status: string;
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
  [field: string]: unknown;
}
interface Status {
  verified: boolean;
  required: boolean;
  person: View | null;
  enterprise: View | null;
  student: View | null;
}
interface AdminView extends View {
  account: { id: number; telephone: string | null; nickName: string };
  details: Record<string, string>;
  upload: { id: number; fileName: string; purpose: string } | null;
}

const person = (app: TestApp, token: string, body: Record<string, unknown>) => send<View>(app, token, 'POST', '/api/v1/verification/person', body);
const enterprise = (app: TestApp, token: string, body: Record<string, unknown>) => send<View>(app, token, 'POST', '/api/v1/verification/enterprise', body);
const student = (app: TestApp, token: string, body: Record<string, unknown>) => send<View>(app, token, 'POST', '/api/v1/verification/student', body);
const status = async (app: TestApp, token: string) => {
  const answer = await send<Status>(app, token, 'GET', '/api/v1/verification/status');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result;
};
/** A decision by an operator, signed in afresh (the suite's clock moves past access tokens). */
const decide = async (app: TestApp, who: Account, id: number, verdict: 'approve' | 'reject', reason?: string) =>
  send<AdminView>(app, await loginToken(app, who.telephone), 'POST', `/api/v1/admin/verifications/${id}/${verdict}`, verdict === 'reject' ? { reason } : undefined);

/** A valid ID number for a birth date, the check character computed by an independent copy of GB 11643. */
function idNumberBornOn(region: string, birth: string, sequence: string): string {
  const first17 = `${region}${birth}${sequence}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((total, digit, index) => total + Number(digit) * (weights[index] ?? 0), 0);
  return `${first17}${'10X98765432'[sum % 11]}`;
}
let sequence = 100;
/** A fresh valid ID number (each identity may hold one account). */
const freshId = () => idNumberBornOn('440304', '19900101', String(++sequence).padStart(3, '0'));

describe('the API document', () => {
  it('publishes the verification and upload routes', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    const paths = Object.keys((docs.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/verification/status',
        '/api/v1/verification/person',
        '/api/v1/verification/enterprise',
        '/api/v1/verification/student',
        '/api/v1/user/upload/private',
        '/api/v1/user/upload/private/{id}',
        '/api/v1/admin/verifications',
        '/api/v1/admin/verifications/{id}/approve',
        '/api/v1/admin/verifications/{id}/reject',
        '/api/v1/admin/uploads/{id}',
      ]),
    );
  });
});

describe('POST /verification/person: the ID number rules (GB 11643-1999)', () => {
  it.each([
    ['a wrong check character', '110105194912310021', M.idNumberChecksum],
    ['a birth date that does not exist (1999-02-30)', '110105199902300007', M.idNumberBirthDate],
    // 2026-06-02 is the day after the test clock's today.
    ['a birth date in the future', '110105202606020013', M.idNumberFuture],
    ['a birth date more than 120 years ago', idNumberBornOn('110105', '18990101', '001'), M.idNumberAge],
    ['an unknown region code', '990105199001011236', M.idNumberRegion],
    ['17 digits', '11010519491231002', M.idNumberFormat],
    ['letters', '1101051949123100AB', M.idNumberFormat],
    ['nothing', '', M.idNumberRequired],
  ])('refuses %s with its own message', async (_case, idNumber, message) => {
    const user = await mainAccount(t);
    const answer = await person(t, user.token, { realName: '张三', idNumber });
    expect(answer.status).toBe(400);
    expect(answer.body.rspmsg).toBe(message);
    expect(await db().select().from(verifications).where(eq(verifications.accountId, user.id))).toEqual([]);
  });

  it.each([
    ['', M.realNameRequired],
    ['张', M.realNameFormat],
    ['张3', M.realNameFormat],
    ['a'.repeat(31), M.realNameFormat],
  ])('refuses the real name %j', async (realName, message) => {
    const user = await mainAccount(t);
    const answer = await person(t, user.token, { realName, idNumber: VALID_ID });
    expect(answer.status).toBe(400);
    expect(answer.body.rspmsg).toBe(message);
  });

  it('accepts a valid number (lower-case x, spaces) as PENDING and shows it masked, never in full', async () => {
    const user = await mainAccount(t);
    const answer = await person(t, user.token, { realName: ' 李四 ', idNumber: '110105 19491231 002x' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.result).toMatchObject({ kind: 'PERSON', status: 'PENDING', reason: null, decidedAt: null, realName: '*四', idNumber: '1101**********002X' });
    const [row] = await db().select().from(verifications).where(eq(verifications.accountId, user.id));
    expect(row).toMatchObject({ subjectKey: VALID_ID, details: { realName: '李四', idNumber: VALID_ID } });

    const seen = await status(t, user.token);
    expect(seen).toMatchObject({ verified: false, required: false, enterprise: null, student: null });
    expect(seen.person).toMatchObject({ status: 'PENDING', idNumber: '1101**********002X', realName: '*四' });
    expect(JSON.stringify(seen)).not.toContain(VALID_ID);

    // The same identity on another account is taken while this one is live.
    const other = await mainAccount(t);
    const taken = await person(t, other.token, { realName: '李四', idNumber: VALID_ID });
    expect(taken.status).toBe(409);
    expect(taken.body.rspcode).toBe(ErrorCodes.IDENTITY_IN_USE.code);
    expect(taken.body.rspmsg).toBe('该身份证号已被其他账号认证或正在审核，每个身份证号只能认证一个账号');
    // And the same account cannot file a second one while the first waits.
    const again = await person(t, user.token, { realName: '李四', idNumber: freshId() });
    expect(again.status).toBe(409);
    expect(again.body.rspmsg).toBe('您的个人认证正在审核中，请等待审核结果');

    // Once rejected, the identity is free for whoever really holds it.
    const rejected = await decide(t, operator, answer.body.result.id, 'reject', '姓名与身份证号不一致');
    expect(rejected.status).toBe(200);
    expect((await person(t, other.token, { realName: '李四', idNumber: VALID_ID })).status).toBe(200);
  });
});

describe('POST /verification/enterprise: the credit code (GB 32100-2015) and the licence', () => {
  it('accepts a valid code with its own LICENCE upload', async () => {
    const user = await mainAccount(t);
    const licence = await uploaded(t, user.token, 'LICENCE', PDF);
    const answer = await enterprise(t, user.token, { enterpriseName: '福州测试科技有限公司', creditCode: '9135 0100 m000 100y43', legalPerson: '王五', licenceUploadId: licence });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.result).toMatchObject({
      kind: 'ENTERPRISE',
      status: 'PENDING',
      enterpriseName: '福州测试科技有限公司',
      creditCode: VALID_CODE,
      legalPerson: '*五',
      licence: { id: licence, purpose: 'LICENCE', contentType: 'application/pdf' },
    });
    expect((await status(t, user.token)).enterprise).toMatchObject({ status: 'PENDING', creditCode: VALID_CODE });
  });

  it.each([
    ['91350100M000100Y44', M.creditCodeChecksum],
    ['91350100M000100Y4', M.creditCodeFormat],
    ['91350100M000100I43', M.creditCodeFormat],
    ['', M.creditCodeRequired],
  ])('refuses the code %j with its own message', async (creditCode, message) => {
    const user = await mainAccount(t);
    const licence = await uploaded(t, user.token, 'LICENCE');
    const answer = await enterprise(t, user.token, { enterpriseName: '测试公司', creditCode, licenceUploadId: licence });
    expect(answer.status).toBe(400);
    expect(answer.body.rspmsg).toBe(message);
  });

  it('checks the optional legal person as a real name, and takes an empty one as not given', async () => {
    const user = await mainAccount(t);
    const licence = await uploaded(t, user.token, 'LICENCE');
    const body = { enterpriseName: '测试公司', creditCode: '91350100M000100Y43', licenceUploadId: licence };
    const bad = await enterprise(t, user.token, { ...body, legalPerson: '张3' });
    expect(bad.status).toBe(400);
    expect(bad.body.rspmsg).toBe(M.realNameFormat);
    const other = await mainAccount(t);
    const empty = await enterprise(t, other.token, { ...body, creditCode: '91440300MA5G00001W', licenceUploadId: await uploaded(t, other.token, 'LICENCE'), legalPerson: '' });
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body.result.legalPerson).toBeNull();
  });

  it('needs a licence of this account uploaded as LICENCE', async () => {
    const user = await mainAccount(t);
    const stranger = await mainAccount(t);
    const body = { enterpriseName: '测试公司', creditCode: '91110000100000000R' };
    const missing = await enterprise(t, user.token, body);
    expect(missing.status).toBe(400);
    expect(missing.body.rspmsg).toBe('请上传营业执照');
    const theirs = await enterprise(t, user.token, { ...body, licenceUploadId: await uploaded(t, stranger.token, 'LICENCE') });
    expect(theirs.status).toBe(400);
    expect(theirs.body.rspmsg).toBe('上传的文件不存在或不属于当前账号，请重新上传');
    const card = await enterprise(t, user.token, { ...body, licenceUploadId: await uploaded(t, user.token, 'STUDENT_CARD') });
    expect(card.status).toBe(400);
    expect(card.body.rspmsg).toBe('所选文件不是营业执照，请在营业执照处重新上传');
    expect(await db().select().from(verifications).where(eq(verifications.accountId, user.id))).toEqual([]);
  });

  it('an account is personal or enterprise: the second kind is refused', async () => {
    const user = await mainAccount(t);
    expect((await person(t, user.token, { realName: '赵六', idNumber: freshId() })).status).toBe(200);
    const refused = await enterprise(t, user.token, { enterpriseName: '测试公司', creditCode: '12100000400000000W', licenceUploadId: await uploaded(t, user.token, 'LICENCE') });
    expect(refused.status).toBe(409);
    expect(refused.body.rspmsg).toBe('该账号已提交个人认证：一个账号只能是个人账号或企业账号，不能同时进行企业认证');

    const company = await mainAccount(t);
    expect((await enterprise(t, company.token, { enterpriseName: '测试公司', creditCode: '52110000MJ00000003', licenceUploadId: await uploaded(t, company.token, 'LICENCE') })).status).toBe(200);
    const personal = await person(t, company.token, { realName: '赵六', idNumber: freshId() });
    expect(personal.status).toBe(409);
    expect(personal.body.rspmsg).toBe('该账号已提交企业认证：一个账号只能是个人账号或企业账号，不能同时进行个人认证');
    const studentOfCompany = await student(t, company.token, { realName: '赵六', school: '清华大学', studentNo: '2023001', cardUploadId: await uploaded(t, company.token, 'STUDENT_CARD') });
    expect(studentOfCompany.status).toBe(409);
    expect(studentOfCompany.body.rspmsg).toBe('企业账号不能进行学生认证；学生认证请使用个人账号');
  });
});

describe('POST /verification/student', () => {
  it('takes a real name, a school, a student number and the card; a person may also be a student', async () => {
    const user = await mainAccount(t);
    expect((await person(t, user.token, { realName: '孙七', idNumber: freshId() })).status).toBe(200);
    const card = await uploaded(t, user.token, 'STUDENT_CARD');
    const answer = await student(t, user.token, { realName: '孙七', school: ' 北京 大学 ', studentNo: '2023123456', cardUploadId: card });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.result).toMatchObject({ kind: 'STUDENT', status: 'PENDING', realName: '*七', school: '北京 大学', studentNo: '******3456', card: { id: card } });
    const [row] = await db().select().from(verifications).where(eq(verifications.id, answer.body.result.id));
    expect(row?.subjectKey).toBe('北京大学#2023123456');

    // The same student number of the same school on another account is taken.
    const other = await mainAccount(t);
    const taken = await student(t, other.token, { realName: '孙七', school: '北京大学', studentNo: '2023123456', cardUploadId: await uploaded(t, other.token, 'STUDENT_CARD') });
    expect(taken.status).toBe(409);
    expect(taken.body.rspmsg).toBe('该学校的这个学号已被其他账号认证或正在审核');

    const bad = await student(t, other.token, { realName: '孙七', school: '北', studentNo: '2023000001', cardUploadId: card });
    expect(bad.status).toBe(400);
    expect(bad.body.rspmsg).toBe('学校名称应为2-64个字符');
    const badNo = await student(t, other.token, { realName: '孙七', school: '北京大学', studentNo: '学号12', cardUploadId: card });
    expect(badNo.body.rspmsg).toBe('学号应为4-32位字母、数字或短横线');
    const licence = await student(t, other.token, { realName: '孙七', school: '北京大学', studentNo: '2023000001', cardUploadId: await uploaded(t, other.token, 'LICENCE') });
    expect(licence.body.rspmsg).toBe('所选文件不是学生证，请在学生证处重新上传');
  });
});

describe('sub-accounts', () => {
  it('cannot submit (403) but see their main account’s status', async () => {
    const main = await mainAccount(t);
    const sub = await subAccountToken(t, main.id);
    for (const [url, body] of [
      ['/api/v1/verification/person', { realName: '张三', idNumber: freshId() }],
      ['/api/v1/verification/enterprise', { enterpriseName: '测试公司', creditCode: VALID_CODE, licenceUploadId: 1 }],
      ['/api/v1/verification/student', { realName: '张三', school: '北京大学', studentNo: '20230001', cardUploadId: 1 }],
    ] as const) {
      const refused = await send(t, sub, 'POST', url, body);
      expect(refused.status).toBe(403);
      expect(refused.body.rspmsg).toBe('实名认证只能由主账号提交，子账号不能进行此操作');
    }
    const submitted = await person(t, main.token, { realName: '周八', idNumber: freshId() });
    expect(submitted.status).toBe(200);
    await decide(t, operator, submitted.body.result.id, 'approve');
    const seen = await status(t, sub);
    expect(seen.verified).toBe(true);
    expect(seen.person).toMatchObject({ id: submitted.body.result.id, status: 'APPROVED', realName: '*八' });
  });
});

describe('operator review', () => {
  it('lists requests with their full details, approves once, and a second decision gets 409', async () => {
    const user = await mainAccount(t);
    const idNumber = freshId();
    const submitted = await person(t, user.token, { realName: '吴九', idNumber });
    const id = submitted.body.result.id;

    const list = await send<{ list: AdminView[]; total: number }>(t, await loginToken(t, operator.telephone), 'GET', '/api/v1/admin/verifications?status=PENDING&pageSize=100');
    expect(list.status).toBe(200);
    const item = list.body.result.list.find((entry) => entry.id === id);
    expect(item).toMatchObject({ kind: 'PERSON', status: 'PENDING', details: { realName: '吴九', idNumber }, account: { id: user.id, telephone: user.telephone } });
    // A queue: oldest first.
    const created = list.body.result.list.map((entry) => entry.createdAt);
    expect([...created].sort()).toEqual(created);

    expect((await send(t, user.token, 'GET', '/api/v1/admin/verifications')).status).toBe(403);
    expect((await decide(t, user, id, 'approve')).status).toBe(403);

    const approved = await decide(t, operator, id, 'approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.result).toMatchObject({ status: 'APPROVED', reviewerId: operator.id });
    expect(approved.body.result.decidedAt).not.toBeNull();

    const twice = await decide(t, operator, id, 'reject', '重复');
    expect(twice.status).toBe(409);
    expect(twice.body.rspmsg).toBe('该认证申请已通过，不能重复审核');
    expect((await decide(t, operator, id, 'approve')).status).toBe(409);
    expect((await decide(t, operator, 987654321, 'approve')).status).toBe(404);

    expect(await status(t, user.token)).toMatchObject({ verified: true, person: { status: 'APPROVED' } });
    const notices = await send<{ list: { kind: string; title: string }[] }>(t, user.token, 'GET', '/api/v1/notifications?page=1&pageSize=10');
    expect(notices.body.result.list.filter((notice) => notice.kind === 'VERIFICATION_DECIDED').map((notice) => notice.title)).toEqual(['个人认证已通过']);
    const again = await person(t, user.token, { realName: '吴九', idNumber: freshId() });
    expect(again.status).toBe(409);
    expect(again.body.rspmsg).toBe('您已通过个人认证，无需重复提交');

    const audit = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(id)));
    expect(audit.map((row) => [row.action, row.targetType, row.actorId])).toEqual([['verification.approve', 'verification', operator.id]]);
  });

  it('rejects with a reason the user sees, and the user may submit again', async () => {
    const user = await mainAccount(t);
    const licence = await uploaded(t, user.token, 'LICENCE');
    const submitted = await enterprise(t, user.token, { enterpriseName: '测试公司', creditCode: '91110000100000000R', licenceUploadId: licence });
    const id = submitted.body.result.id;
    const noReason = await decide(t, operator, id, 'reject', ' ');
    expect(noReason.status).toBe(400);
    expect(noReason.body.rspmsg).toBe('请输入驳回原因');

    const rejected = await decide(t, operator, id, 'reject', '营业执照照片不清晰');
    expect(rejected.status).toBe(200);
    expect(rejected.body.result).toMatchObject({ status: 'REJECTED', reason: '营业执照照片不清晰', upload: { id: licence, purpose: 'LICENCE' } });
    expect((await decide(t, operator, id, 'approve')).body.rspmsg).toBe('该认证申请已驳回，不能重复审核');
    expect(await status(t, user.token)).toMatchObject({ verified: false, enterprise: { id, status: 'REJECTED', reason: '营业执照照片不清晰' } });

    const again = await enterprise(t, user.token, { enterpriseName: '测试公司', creditCode: '91110000100000000R', licenceUploadId: licence });
    expect(again.status).toBe(200);
    expect((await status(t, user.token)).enterprise).toMatchObject({ id: again.body.result.id, status: 'PENDING', reason: null });
    const audit = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(id)));
    expect(audit[0]).toMatchObject({ action: 'verification.reject', detail: { reason: '营业执照照片不清晰', kind: 'ENTERPRISE' } });
    // The decision reaches the account's bell, once, with the reason.
    const notices = await send<{ list: { kind: string; title: string; body: string }[] }>(t, user.token, 'GET', '/api/v1/notifications?page=1&pageSize=10');
    expect(notices.body.result.list.filter((notice) => notice.kind === 'VERIFICATION_DECIDED')).toEqual([
      expect.objectContaining({ title: '企业认证未通过', body: expect.stringContaining('驳回原因：营业执照照片不清晰') }),
    ]);
  });
});

describe('races decided by the database', () => {
  it('two simultaneous person submissions of one account: exactly one is accepted', async () => {
    const user = await mainAccount(t);
    const answers = await Promise.all([person(t, user.token, { realName: '郑十', idNumber: freshId() }), person(t, user.token, { realName: '郑十', idNumber: freshId() })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await db().select().from(verifications).where(eq(verifications.accountId, user.id))).toHaveLength(1);
  });

  it('a person and an enterprise submission at once: exactly one is accepted', async () => {
    const user = await mainAccount(t);
    const licence = await uploaded(t, user.token, 'LICENCE');
    const answers = await Promise.all([
      person(t, user.token, { realName: '郑十', idNumber: freshId() }),
      enterprise(t, user.token, { enterpriseName: '并发公司', creditCode: '91110000100000000R', licenceUploadId: licence }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
  });

  it('one ID number on two accounts at once: exactly one is accepted', async () => {
    const [first, second] = await Promise.all([mainAccount(t), mainAccount(t)]);
    const idNumber = freshId();
    const answers = await Promise.all([person(t, first.token, { realName: '钱一', idNumber }), person(t, second.token, { realName: '钱一', idNumber })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.rspcode).toBe(ErrorCodes.IDENTITY_IN_USE.code);
  });

  it('two decisions at once: exactly one applies', async () => {
    const user = await mainAccount(t);
    const id = (await person(t, user.token, { realName: '钱二', idNumber: freshId() })).body.result.id;
    const answers = await Promise.all([decide(t, operator, id, 'approve'), decide(t, operator, id, 'reject', '并发驳回')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(id)))).toHaveLength(1);
  });
});

describe('the gate on creating instances (REQUIRE_VERIFICATION)', () => {
  const HOST = 'bj-a-4090-05';
  const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
  const create = (app: TestApp, token: string) => send<{ instanceId: string }>(app, token, 'POST', '/api/v1/rental', { hostId: HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 });

  it('is off by default: an account without verification creates instances', async () => {
    const user = await mainAccount(t);
    await rechargeThroughSandbox(t, user.token, 10_000);
    expect((await status(t, user.token)).required).toBe(false);
    const created = await create(t, user.token);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  });

  it('on: refuses creating and cloning until the main account has an approved verification', async () => {
    const gated = await createTestApp({ env: { DATA_DIR: dataDir, REQUIRE_VERIFICATION: 'true' } });
    try {
      const reviewer = await mainAccount(gated);
      await makeOperator(gated.deps.database.db, reviewer.telephone);
      const user = await mainAccount(gated);
      await rechargeThroughSandbox(gated, user.token, 200_000);
      expect(await status(gated, user.token)).toMatchObject({ verified: false, required: true });

      const refused = await create(gated, user.token);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ rspcode: ErrorCodes.VERIFICATION_REQUIRED.code, rspmsg: '创建实例前请先完成实名认证' });

      // Waiting for review is not enough.
      const submitted = await person(gated, user.token, { realName: '冯三', idNumber: freshId() });
      expect((await create(gated, user.token)).status).toBe(403);
      // Neither the main account's sub-account.
      const sub = await subAccountToken(gated, user.id);
      expect((await create(gated, sub)).status).toBe(403);

      expect((await decide(gated, reviewer, submitted.body.result.id, 'approve')).status).toBe(200);
      const created = await create(gated, user.token);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const { instanceId } = created.body.result;

      // Clone and move go through the same check: with the approval gone, a clone of a stopped instance is refused.
      const settleTo = async (wanted: string) => {
        for (let step = 0; step < 10; step += 1) {
          await new Reconciler(gated.deps).tick();
          const detail = await send<{ status: string }>(gated, user.token, 'GET', `/api/v1/rental/detail?instanceId=${instanceId}`);
          if (detail.body.result.status === wanted) return;
          gated.clock.advance(3);
        }
        throw new Error(`instance never reached ${wanted}`);
      };
      await settleTo('PoweredOn');
      expect((await send(gated, user.token, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
      await settleTo('PoweredOff');
      const cloneBody = { instanceId, hostId: 'bj-a-4090-06', gpuNum: 1, chargingRuleId: 1 };
      await gated.deps.database.db.update(verifications).set({ status: 'REJECTED', reason: '测试撤销' }).where(eq(verifications.id, submitted.body.result.id));
      for (const path of ['/api/v1/rental/clone', '/api/v1/rental/clone/v2']) {
        const clone = await send(gated, user.token, 'POST', path, cloneBody);
        expect(clone.status, `${path} ${JSON.stringify(clone.body)}`).toBe(403);
        expect(clone.body.rspcode).toBe(ErrorCodes.VERIFICATION_REQUIRED.code);
      }
      // A quote is not a creation.
      expect((await send(gated, user.token, 'POST', '/api/v1/rental/clone/prepay', cloneBody)).status).toBe(200);
      await gated.deps.database.db.update(verifications).set({ status: 'APPROVED', reason: null }).where(eq(verifications.id, submitted.body.result.id));
      const clone = await send(gated, user.token, 'POST', '/api/v1/rental/clone', cloneBody);
      expect(clone.status, JSON.stringify(clone.body)).toBe(200);
      // The sub-account of a verified main account passes the gate (its own empty wallet is what stops it now).
      const bySub = await create(gated, sub);
      expect(bySub.body.rspcode).toBe(ErrorCodes.INSUFFICIENT_BALANCE.code);
    } finally {
      await gated.close();
    }
  });
});
