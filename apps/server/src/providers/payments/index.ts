import type { Config } from '../../config.js';
import { hmacHex } from '../../lib/crypto.js';
import type { GatewayName, PaymentGateway } from './provider.js';
import { SandboxGateway } from './sandbox.js';
import { WechatPayGateway } from './wechatpay.js';
import { AlipayGateway } from './alipay.js';

/** The gateways PAYMENT_PROVIDERS names (bank transfer needs none: the operator confirms it). */
export function createPaymentGateways(config: Config): Map<GatewayName, PaymentGateway> {
  const gateways = new Map<GatewayName, PaymentGateway>();
  if (config.paymentProviders.includes('sandbox')) {
    gateways.set('sandbox', new SandboxGateway(hmacHex(config.jwtSecret, 'sandbox-payment-notifications'), config.publicUrl));
  }
  if (config.paymentProviders.includes('wechatpay') && config.wechatPay) gateways.set('wechatpay', new WechatPayGateway(config.wechatPay));
  if (config.paymentProviders.includes('alipay') && config.alipay) gateways.set('alipay', new AlipayGateway(config.alipay));
  return gateways;
}
