import { ConfigProvider, theme } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import type { ComponentType, ReactNode } from 'react';
import { useEffectiveColorMode } from '../stores/colorMode';
// antd's date pickers and the pages' dates speak Chinese wherever antd is used.
import './dayjs';
import { THEME_CSS_VAR_KEY, THEME_TOKENS } from './tokens';

/**
 * antd for the part of the page inside it: zh_CN, the light or dark algorithm with the theme's tokens
 * (theme/tokens.ts, the same the plain elements get from styles/theme.css) and its CSS variables.
 * Only the console pages built with antd components are wrapped in it (`withAntd`), so antd's code
 * and its run-time styles load with those pages and never with the public, sign-in or overview pages.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  const mode = useEffectiveColorMode();
  return (
    <ConfigProvider
      locale={zhCN}
      // Keep "登录" as written: antd would render two-character labels as "登 录", breaking accessible names.
      button={{ autoInsertSpace: false }}
      theme={{
        algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: THEME_TOKENS[mode],
        cssVar: { key: THEME_CSS_VAR_KEY },
      }}
    >
      {children}
    </ConfigProvider>
  );
}

/** The page component inside an AntdScope (for pages that use antd components). */
export function withAntd<Props extends object>(Page: ComponentType<Props>): ComponentType<Props> {
  function AntdPage(props: Props) {
    return (
      <AntdScope>
        <Page {...props} />
      </AntdScope>
    );
  }
  AntdPage.displayName = `withAntd(${Page.displayName ?? Page.name})`;
  return AntdPage;
}
