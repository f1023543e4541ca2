import { ErrorCodes, type ErrorCodeName } from '@slg/shared';

/** A rule violation the client should see: code, HTTP status and Chinese message from the shared table. */
export class AppError extends Error {
  readonly code: number;
  readonly status: number;
  readonly codeName: ErrorCodeName;
  /** For refusals by a limit: sent as the Retry-After header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(codeName: ErrorCodeName, message?: string, options: { retryAfterSeconds?: number } = {}) {
    const entry = ErrorCodes[codeName];
    super(message ?? entry.message);
    this.codeName = codeName;
    this.code = entry.code;
    this.status = entry.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (message?: string) => new AppError('NOT_FOUND', message);
export const forbidden = (message?: string) => new AppError('FORBIDDEN', message);
export const badRequest = (message: string) => new AppError('VALIDATION', message);
