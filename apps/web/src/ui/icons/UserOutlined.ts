import svg from '@ant-design/icons-svg/inline-svg/outlined/user.svg?raw';
import { makeIcon } from './makeIcon';

export const UserOutlined = /*#__PURE__*/ makeIcon('UserOutlined', svg);
