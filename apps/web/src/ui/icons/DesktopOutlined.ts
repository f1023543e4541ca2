import svg from '@ant-design/icons-svg/inline-svg/outlined/desktop.svg?raw';
import { makeIcon } from './makeIcon';

export const DesktopOutlined = /*#__PURE__*/ makeIcon('DesktopOutlined', svg);
