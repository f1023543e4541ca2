import type { HumanCheckProviderName } from '@slg/shared';

/** An ALTCHA proof-of-work challenge as the widget takes it (parameters signed by the server). */
export interface AltchaChallenge {
  parameters: Record<string, unknown>;
  signature: string;
}

/** What the console needs to show the active human check; never any secret. */
export type HumanCheckChallenge =
  | { provider: 'altcha'; altcha: AltchaChallenge }
  | { provider: 'aliyun'; aliyun: { prefix: string; sceneId: string; region: 'cn' | 'sgp' } }
  | { provider: 'tencent'; tencent: { captchaAppId: string } };

/**
 * A human check (CAPTCHA) asked for before SMS sends once a client or a phone passed its threshold.
 * `verify` spends the solution: a solution passes at most once, whatever arrives at the same time.
 */
export interface HumanCheck {
  readonly name: HumanCheckProviderName;
  challenge(): Promise<HumanCheckChallenge>;
  /** True when `solution` is a genuine, unexpired and never-used solved check; false otherwise. */
  verify(solution: string, clientAddress: string): Promise<boolean>;
}

/** The vendor could not be asked (network, credentials, outage): not the client's fault. */
export class HumanCheckUnavailable extends Error {}
