import type { ReactNode } from 'react';
import { Alert, Card, Flex, Grid, Result, Steps, Typography, theme } from 'antd';
import { ApiOutlined, CloudServerOutlined, RocketOutlined, WalletOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { useUserStore } from '../../../stores/user';
import LinkButton from '../components/LinkButton';
import { DESK_LINKS } from '../links';
import { WELCOME_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';
import { justRegistered } from './registered';

type StepKey = (typeof WELCOME_TEXTS.steps)[number]['key'];

const STEP_ICONS: Record<StepKey, ReactNode> = {
  recharge: <WalletOutlined />,
  create: <CloudServerOutlined />,
  connect: <ApiOutlined />,
};

/**
 * 欢迎 (`/welcome`): the getting-started page registration lands on. It says 注册成功 only when a
 * registration brought the visitor here; anyone else reads a plain welcome and is offered 立即注册
 * unless signed in.
 */
function WelcomePage() {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const wide = Boolean(screens.md);
  const registered = justRegistered(useLocation().state);
  const loggedIn = useUserStore((state) => Boolean(state.token));

  return (
    <div style={{ maxWidth: 1080, margin: '0 auto', paddingInline: wide ? 24 : 12, paddingBlock: wide ? 48 : 24 }}>
      <Card>
        <Result
          status={registered ? 'success' : 'info'}
          icon={registered ? undefined : <RocketOutlined style={{ color: token.colorPrimary }} />}
          title={<h1 className="slg-error-title">{registered ? WELCOME_TEXTS.registeredTitle : WELCOME_TEXTS.title}</h1>}
          subTitle={WELCOME_TEXTS.subtitle}
          style={{ paddingInline: 0 }}
          extra={
            <Flex wrap gap={12} justify="center">
              {loggedIn ? (
                <LinkButton to={DESK_LINKS.console} type="primary" size="large">
                  {WELCOME_TEXTS.console}
                </LinkButton>
              ) : (
                <LinkButton to={DESK_LINKS.register} type="primary" size="large">
                  {WELCOME_TEXTS.register}
                </LinkButton>
              )}
              <LinkButton to={DESK_LINKS.home} size="large">
                {WELCOME_TEXTS.home}
              </LinkButton>
            </Flex>
          }
        />
        <Typography.Title level={2} style={{ marginTop: 0, fontSize: token.fontSizeHeading4 }}>
          {WELCOME_TEXTS.stepsTitle}
        </Typography.Title>
        {/* A checklist rather than progress: every step reads as an action to take. */}
        <Steps
          current={0}
          styles={{
            itemTitle: { color: token.colorText },
            itemContent: { color: token.colorTextSecondary },
            itemIcon: { color: token.colorPrimary },
          }}
          orientation={wide ? 'horizontal' : 'vertical'}
          items={WELCOME_TEXTS.steps.map((step, index) => ({
            key: step.key,
            icon: STEP_ICONS[step.key],
            title: step.title,
            subTitle: wide ? undefined : WELCOME_TEXTS.stepLabel(index + 1),
            content: step.description,
          }))}
        />
        <Alert
          type="info"
          showIcon
          style={{ marginTop: 32 }}
          title={WELCOME_TEXTS.tipsTitle}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {WELCOME_TEXTS.tips.map((tip) => (
                <li key={tip}>{tip}</li>
              ))}
            </ul>
          }
        />
      </Card>
    </div>
  );
}

export default withAntd(WelcomePage);
