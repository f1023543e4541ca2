import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { VERIFICATION_KIND_LABELS, type Page, type PrivateUploadPurpose, type VerificationKind, type VerificationStatus } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { isUniqueViolation, violatedConstraint } from '../../db/errors.js';
import { privateUploads, users, verifications } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { recordAudit } from '../../core/audit.js';
import { NotificationService } from '../notifications/service.js';
import type { Principal } from '../../core/principal.js';
import { VERIFICATION_TEXTS as T } from './texts.js';
import {
  adminViewOf,
  userViewOf,
  type AdminVerificationView,
  type EnterpriseDetails,
  type EnterpriseView,
  type PersonDetails,
  type PersonView,
  type StudentDetails,
  type StudentView,
  type VerificationRow,
  type VerificationStatusView,
  type VerificationView,
} from './views.js';

/** Statuses that hold an identity: the partial unique indexes of `verifications` cover exactly these. */
const LIVE: VerificationStatus[] = ['PENDING', 'APPROVED'];
const SUBJECT_INDEX = 'verifications_live_subject';

/** Kinds that cannot both be live on one account: an account is personal (person, student) or an enterprise. */
const EXCLUDES: Record<VerificationKind, VerificationKind[]> = {
  PERSON: ['ENTERPRISE'],
  ENTERPRISE: ['PERSON', 'STUDENT'],
  STUDENT: ['ENTERPRISE'],
};

function exclusionMessage(kind: VerificationKind, live: VerificationKind): string {
  if (kind === 'STUDENT') return T.studentOnEnterprise;
  if (kind === 'ENTERPRISE' && live === 'STUDENT') return T.enterpriseOnStudent;
  return T.personOrEnterprise(live);
}

interface Submission {
  kind: VerificationKind;
  subjectKey: string;
  details: Record<string, string>;
  upload?: { id: number; purpose: Extract<PrivateUploadPurpose, 'LICENCE' | 'STUDENT_CARD'> };
}

export type VerificationDecision = { approve: true } | { approve: false; reason: string };

export interface AdminVerificationQuery extends PageQuery {
  status?: VerificationStatus | undefined;
  kind?: VerificationKind | undefined;
}

/**
 * 实名认证 of main accounts: PERSON, ENTERPRISE, STUDENT requests, submitted PENDING and decided once
 * by an operator. Who may hold what is decided by the database: the account row is locked while a
 * submission checks the account's live requests (one per kind; personal and enterprise exclude each
 * other), and the partial unique index on the identity refuses one identity on two accounts.
 */
export class VerificationService {
  constructor(private readonly deps: Pick<AppDeps, 'database' | 'now' | 'config' | 'sms'>) {}

  private get db() {
    return this.deps.database.db;
  }

  submitPerson(principal: Principal, details: PersonDetails): Promise<PersonView> {
    return this.submit(principal, { kind: 'PERSON', subjectKey: details.idNumber, details: { ...details } }) as Promise<PersonView>;
  }

  submitEnterprise(principal: Principal, input: EnterpriseDetails & { licenceUploadId: number }): Promise<EnterpriseView> {
    const { licenceUploadId, ...details } = input;
    return this.submit(principal, {
      kind: 'ENTERPRISE',
      subjectKey: details.creditCode,
      details: details.legalPerson ? { ...details, legalPerson: details.legalPerson } : { enterpriseName: details.enterpriseName, creditCode: details.creditCode },
      upload: { id: licenceUploadId, purpose: 'LICENCE' },
    }) as Promise<EnterpriseView>;
  }

  submitStudent(principal: Principal, input: StudentDetails & { cardUploadId: number }): Promise<StudentView> {
    const { cardUploadId, ...details } = input;
    return this.submit(principal, {
      kind: 'STUDENT',
      // One student number per school: the school's name without spaces, case-folded.
      subjectKey: `${details.school.replace(/\s+/g, '').toUpperCase()}#${details.studentNo.toUpperCase()}`,
      details: { ...details },
      upload: { id: cardUploadId, purpose: 'STUDENT_CARD' },
    }) as Promise<StudentView>;
  }

  private async submit(principal: Principal, submission: Submission): Promise<VerificationView> {
    const accountId = principal.ownerId;
    const now = this.deps.now();
    try {
      return await this.db.transaction(async (tx) => {
        // Every submission of the account queues here, so the checks below see every live request.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, accountId)).for('update');
        const live = await tx
          .select({ kind: verifications.kind, status: verifications.status })
          .from(verifications)
          .where(and(eq(verifications.accountId, accountId), inArray(verifications.status, LIVE)));
        const same = live.find((row) => row.kind === submission.kind);
        if (same) throw new AppError('STATE_CONFLICT', T.alreadyLive(submission.kind, same.status as VerificationStatus));
        const excluded = live.find((row) => EXCLUDES[submission.kind].includes(row.kind as VerificationKind));
        if (excluded) throw new AppError('STATE_CONFLICT', exclusionMessage(submission.kind, excluded.kind as VerificationKind));
        const upload = submission.upload ? await this.uploadFor(tx, accountId, submission.upload) : null;

        const [row] = await tx
          .insert(verifications)
          .values({
            accountId,
            kind: submission.kind,
            status: 'PENDING',
            subjectKey: submission.subjectKey,
            details: submission.details,
            uploadId: upload?.id ?? null,
            createdAt: now,
          })
          .returning();
        if (!row) throw new Error('verification insert returned nothing');
        return userViewOf(row, upload);
      });
    } catch (error) {
      // Under the account lock a second live request of the kind cannot appear, so the index that
      // refused is the identity's: another account holds it.
      if (isUniqueViolation(error)) {
        const constraint = violatedConstraint(error);
        if (constraint === undefined || constraint === SUBJECT_INDEX) throw new AppError('IDENTITY_IN_USE', T.subjectInUse[submission.kind]);
        throw new AppError('STATE_CONFLICT', T.alreadyLive(submission.kind, 'PENDING'));
      }
      throw error;
    }
  }

  private async uploadFor(tx: Transaction, accountId: number, wanted: NonNullable<Submission['upload']>) {
    const [upload] = await tx
      .select()
      .from(privateUploads)
      .where(and(eq(privateUploads.id, wanted.id), eq(privateUploads.ownerId, accountId)));
    if (!upload) throw new AppError('VALIDATION', T.uploadNotFound);
    if (upload.purpose !== wanted.purpose) throw new AppError('VALIDATION', T.uploadWrongPurpose[wanted.purpose]);
    return upload;
  }

  /** The account's latest request of each kind; a sub-account sees its main account's. */
  async status(principal: Principal): Promise<VerificationStatusView> {
    const rows = await this.db
      .selectDistinctOn([verifications.kind])
      .from(verifications)
      .where(eq(verifications.accountId, principal.ownerId))
      .orderBy(verifications.kind, desc(verifications.createdAt), desc(verifications.id));
    const uploads = await this.uploadsOf(this.db, rows);
    const latest = new Map(rows.map((row) => [row.kind, userViewOf(row, row.uploadId ? uploads.get(row.uploadId) : null)]));
    const person = latest.get('PERSON');
    const enterprise = latest.get('ENTERPRISE');
    const student = latest.get('STUDENT');
    return {
      // A live request of a kind is always its latest (a new one cannot be filed beside it), so an
      // approval anywhere shows here.
      verified: rows.some((row) => row.status === 'APPROVED'),
      required: this.deps.config.requireVerification,
      person: person?.kind === 'PERSON' ? person : null,
      enterprise: enterprise?.kind === 'ENTERPRISE' ? enterprise : null,
      student: student?.kind === 'STUDENT' ? student : null,
    };
  }

  private async uploadsOf(executor: Executor, rows: VerificationRow[]) {
    const ids = [...new Set(rows.flatMap((row) => (row.uploadId ? [row.uploadId] : [])))];
    if (ids.length === 0) return new Map<number, typeof privateUploads.$inferSelect>();
    const found = await executor.select().from(privateUploads).where(inArray(privateUploads.id, ids));
    return new Map(found.map((upload) => [upload.id, upload]));
  }

  /** Every request, for review: PENDING oldest first (a queue), anything else newest first. */
  async listAll(query: AdminVerificationQuery): Promise<Page<AdminVerificationView>> {
    const conditions: SQL[] = [];
    if (query.status) conditions.push(eq(verifications.status, query.status));
    if (query.kind) conditions.push(eq(verifications.kind, query.kind));
    const where = conditions.length ? and(...conditions) : undefined;
    const order = query.status === 'PENDING' ? [asc(verifications.createdAt), asc(verifications.id)] : [desc(verifications.createdAt), desc(verifications.id)];
    return paged(
      query,
      (limit, offset) =>
        this.db
          .select({ row: verifications, account: { id: users.id, telephone: users.telephone, nickName: users.nickName } })
          .from(verifications)
          .innerJoin(users, eq(users.id, verifications.accountId))
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
      async () => (await this.db.select({ n: count() }).from(verifications).where(where))[0]?.n ?? 0,
      async (page) => {
        const uploads = await this.uploadsOf(this.db, page.map((item) => item.row));
        return page.map((item) => adminViewOf(item.row, item.account, item.row.uploadId ? uploads.get(item.row.uploadId) : null));
      },
    );
  }

  /**
   * An operator's decision: one conditional UPDATE … WHERE status = 'PENDING' claims the request, so of
   * two decisions only the first applies; the second learns what was decided (409). Audited in the
   * same transaction.
   */
  async decide(actorId: number, id: number, decision: VerificationDecision): Promise<AdminVerificationView> {
    const now = this.deps.now();
    return this.db.transaction(async (tx) => {
      const [decided] = await tx
        .update(verifications)
        .set({
          status: decision.approve ? 'APPROVED' : 'REJECTED',
          reason: decision.approve ? null : decision.reason,
          reviewerId: actorId,
          decidedAt: now,
        })
        .where(and(eq(verifications.id, id), eq(verifications.status, 'PENDING')))
        .returning();
      if (!decided) {
        const [existing] = await tx.select({ status: verifications.status }).from(verifications).where(eq(verifications.id, id));
        if (!existing) throw new AppError('NOT_FOUND', T.notFound);
        throw new AppError('STATE_CONFLICT', T.alreadyDecided(existing.status as VerificationStatus));
      }
      await recordAudit(
        tx,
        {
          actorId,
          action: decision.approve ? 'verification.approve' : 'verification.reject',
          targetType: 'verification',
          targetId: id,
          detail: { kind: decided.kind, accountId: decided.accountId, ...(decision.approve ? {} : { reason: decision.reason }) },
        },
        now,
      );
      // The account hears of it in the console's bell.
      const label = VERIFICATION_KIND_LABELS[decided.kind as VerificationKind];
      await new NotificationService(this.deps).record(tx, [
        {
          ownerId: decided.accountId,
          creatorId: decided.accountId,
          recipientId: decided.accountId,
          kind: 'VERIFICATION_DECIDED',
          title: decision.approve ? T.decidedTitle.approved(label) : T.decidedTitle.rejected(label),
          body: decision.approve ? T.decidedBody.approved : T.decidedBody.rejected(decision.reason),
          instanceRowId: null,
          dedupeKey: `verification:${decided.id}`,
        },
      ]);
      const [account] = await tx.select({ id: users.id, telephone: users.telephone, nickName: users.nickName }).from(users).where(eq(users.id, decided.accountId));
      const [upload] = decided.uploadId ? await tx.select().from(privateUploads).where(eq(privateUploads.id, decided.uploadId)) : [];
      return adminViewOf(decided, account ?? { id: decided.accountId, telephone: null, nickName: '' }, upload);
    });
  }
}
