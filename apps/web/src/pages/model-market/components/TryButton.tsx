import { MessageOutlined } from '@ant-design/icons';
import { AccountType } from '@slg/shared';
import { Button, Tooltip } from 'antd';
import { LinkButton } from '../../../components/LinkButton';
import { loginRedirectPath } from '../../../router/guards';
import { permissionList, useUserStore } from '../../../stores/user';
import { MODEL_PATHS, MODEL_TEXTS } from '../texts';

const T = MODEL_TEXTS.tryIt;

/** 模型对话 with this model chosen. */
export function chatLocationOf(modelId: string): { pathname: string; search: string } {
  return { pathname: MODEL_PATHS.chat, search: `?${new URLSearchParams({ model: modelId }).toString()}` };
}

/**
 * Whether the session may call the models: a sub-account needs 模型部署 (the server refuses it
 * otherwise); null for a visitor.
 */
export function useMayUseModels(): boolean | null {
  const signedIn = useUserStore((state) => Boolean(state.token));
  const sub = useUserStore((state) => state.accountType === AccountType.SUB);
  const permissions = useUserStore((state) => permissionList(state.userInfo));
  if (!signedIn) return null;
  if (!sub) return true;
  // Before its info is loaded a sub-account is let through; the server has the last word.
  return permissions === null || permissions.includes('MODEL_DEPLOY');
}

/** 体验: to 模型对话 with the model; a visitor goes through the sign-in and back. */
export function TryButton({ modelId, name }: { modelId: string; name: string }) {
  const may = useMayUseModels();
  const target = chatLocationOf(modelId);
  if (may === false) {
    return (
      <Tooltip title={T.noPermission}>
        <Button type="primary" icon={<MessageOutlined />} disabled aria-label={T.label(name)}>
          {T.action}
        </Button>
      </Tooltip>
    );
  }
  const to = may === null ? loginRedirectPath(target) : `${target.pathname}${target.search}`;
  return (
    <LinkButton type="primary" to={to} icon={<MessageOutlined />} aria-label={T.label(name)} title={may === null ? T.signIn : undefined}>
      {T.action}
    </LinkButton>
  );
}
