import { Typography } from 'antd';
import { SETTING_TEXTS } from '../texts';

const T = SETTING_TEXTS.tokens.usage;

/** `curl -H "Authorization: Bearer …" <this site>/api/v1/rental`, copyable. */
export function UsageExample({ token = T.placeholder }: { token?: string }) {
  const command = T.command(window.location.origin, token);
  return (
    <Typography.Paragraph className="slg-token-code" copyable={{ text: command }}>
      <code>{command}</code>
    </Typography.Paragraph>
  );
}
