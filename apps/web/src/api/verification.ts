/**
 * 实名认证: the account's verification status, the three submissions, and the private uploads
 * (营业执照, 学生证) that go with them. ID numbers come back masked; the full number never returns.
 */
import type { PrivateUploadPurpose, VerificationKind } from '@slg/shared';
import type {
  EnterpriseView as EnterpriseVerification,
  PersonView as PersonVerification,
  StudentView as StudentVerification,
  UploadBrief,
  UploadView as UploadedFile,
  VerificationView as Verification,
  VerificationStatusView as VerificationStatusDto,
} from '@slg/shared/views/verification';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { request, type DownloadResult } from './client';
import { saveDownload } from './download';
import { queryKeys } from './queryKeys';

// The answers' types are inferred from the server's schemas (packages/shared/src/views/verification).
export type {
  EnterpriseView as EnterpriseVerification,
  PersonView as PersonVerification,
  StudentView as StudentVerification,
  UploadBrief,
  UploadView as UploadedFile,
  VerificationView as Verification,
  VerificationStatusView as VerificationStatusDto,
} from '@slg/shared/views/verification';

export interface PersonInput {
  realName: string;
  idNumber: string;
}

export interface EnterpriseInput {
  enterpriseName: string;
  creditCode: string;
  legalPerson?: string;
  licenceUploadId: number;
}

export interface StudentInput {
  realName: string;
  school: string;
  studentNo: string;
  cardUploadId: number;
}

export const verificationKeys = {
  all: queryKeys.verification,
  status: () => [...queryKeys.verification, 'status'] as const,
};

/** How often the status is read again while a request waits for review. */
export const VERIFICATION_POLL_MS = 5_000;

// The pages show a failed load in place (with 重试), so the read has no toast.
export function fetchVerificationStatus(): Promise<VerificationStatusDto> {
  return request<VerificationStatusDto>({ url: '/verification/status', silent: true });
}

export function submitPersonVerification(input: PersonInput): Promise<PersonVerification> {
  return request<PersonVerification>({ method: 'POST', url: '/verification/person', data: input });
}

export function submitEnterpriseVerification(input: EnterpriseInput): Promise<EnterpriseVerification> {
  return request<EnterpriseVerification>({ method: 'POST', url: '/verification/enterprise', data: input });
}

export function submitStudentVerification(input: StudentInput): Promise<StudentVerification> {
  return request<StudentVerification>({ method: 'POST', url: '/verification/student', data: input });
}

/** POST /user/upload/private (multipart: purpose, file). The server judges the bytes, size and type. */
export function uploadPrivateFile(file: Blob & { name?: string }, purpose: PrivateUploadPurpose, signal?: AbortSignal): Promise<UploadedFile> {
  const data = new FormData();
  data.append('purpose', purpose);
  data.append('file', file, file.name ?? 'upload');
  return request<UploadedFile>({ method: 'POST', url: '/user/upload/private', data, ...(signal ? { signal } : {}) });
}

/** The account's own uploaded file (its owner only; never cached). */
export function fetchPrivateUpload(id: number): Promise<DownloadResult> {
  return request<DownloadResult>({ url: `/user/upload/private/${id}` });
}

/**
 * Opens an uploaded file in a new tab: the tab opens at once (inside the click, so no popup blocker
 * stops it) and shows the file when it arrives; without a tab the file is downloaded.
 */
export async function openPrivateUpload(upload: Pick<UploadBrief, 'id' | 'fileName'>): Promise<void> {
  const tab = typeof window.open === 'function' ? window.open('', '_blank') : null;
  try {
    const file = await fetchPrivateUpload(upload.id);
    if (!tab) {
      saveDownload(file, upload.fileName);
      return;
    }
    const url = URL.createObjectURL(file.blob);
    tab.location.href = url;
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

const KINDS: readonly (keyof Pick<VerificationStatusDto, 'person' | 'enterprise' | 'student'>)[] = ['person', 'enterprise', 'student'];

/** The latest request of each kind, in the order the pages show them. */
export function verificationsOf(status: VerificationStatusDto): Verification[] {
  return KINDS.flatMap((key) => {
    const item = status[key];
    return item ? [item] : [];
  });
}

export function hasPending(status: VerificationStatusDto | undefined): boolean {
  return status ? verificationsOf(status).some((item) => item.status === 'PENDING') : false;
}

/** A request that holds its kind: waiting for review or approved (a new one of the kind is refused). */
export function isLive(item: Verification | null | undefined): boolean {
  return item?.status === 'PENDING' || item?.status === 'APPROVED';
}

/**
 * The kind that keeps `kind` from being submitted: an account is personal (个人, 学生) or an enterprise,
 * as the server decides. Null when nothing stands in the way.
 */
export function blockingKind(status: VerificationStatusDto, kind: VerificationKind): VerificationKind | null {
  if (kind === 'ENTERPRISE') {
    if (isLive(status.person)) return 'PERSON';
    if (isLive(status.student)) return 'STUDENT';
    return null;
  }
  return isLive(status.enterprise) ? 'ENTERPRISE' : null;
}

/** The status, read again every few seconds while a request waits for review. */
export function useVerificationStatusQuery() {
  return useQuery({
    queryKey: verificationKeys.status(),
    queryFn: fetchVerificationStatus,
    refetchInterval: (query) => (hasPending(query.state.data) ? VERIFICATION_POLL_MS : false),
  });
}

/** After a submission: the status page shows the new request (审核中) at once, then reads the server again. */
export function rememberSubmitted(queryClient: QueryClient, submitted: Verification): Promise<void> {
  const key = submitted.kind === 'PERSON' ? 'person' : submitted.kind === 'ENTERPRISE' ? 'enterprise' : 'student';
  queryClient.setQueryData<VerificationStatusDto>(verificationKeys.status(), (current) => (current ? { ...current, [key]: submitted } : current));
  return queryClient.invalidateQueries({ queryKey: verificationKeys.all });
}
