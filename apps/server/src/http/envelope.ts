import { z } from 'zod';
import { SUCCESS_CODE, SUCCESS_RSPCODE, type Envelope } from '@slg/shared';

export interface SuccessEnvelope<T> {
  rspcode: typeof SUCCESS_RSPCODE;
  code: typeof SUCCESS_CODE;
  rspmsg: string;
  result: T;
}

export function ok<T>(result: T): SuccessEnvelope<T> {
  return { rspcode: SUCCESS_RSPCODE, code: SUCCESS_CODE, rspmsg: 'success', result };
}

export function failure(code: number, message: string): Envelope<null> {
  return { rspcode: code, code, rspmsg: message, result: null };
}

/** Response schema of a success envelope around `result`, for validation and the OpenAPI document. */
export function envelopeOf<T extends z.ZodType>(result: T) {
  return z.object({
    rspcode: z.literal(SUCCESS_RSPCODE),
    code: z.literal(SUCCESS_CODE),
    rspmsg: z.string(),
    result,
  });
}

export const errorEnvelope = z
  .object({ rspcode: z.number(), code: z.number(), rspmsg: z.string(), result: z.null() })
  .describe('错误响应：rspcode 与 code 为业务错误码，rspmsg 为中文说明');

export const emptyEnvelope = envelopeOf(z.null());
