import svg from '@ant-design/icons-svg/inline-svg/outlined/logout.svg?raw';
import { makeIcon } from './makeIcon';

export const LogoutOutlined = /*#__PURE__*/ makeIcon('LogoutOutlined', svg);
