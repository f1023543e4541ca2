import svg from '@ant-design/icons-svg/inline-svg/outlined/team.svg?raw';
import { makeIcon } from './makeIcon';

export const TeamOutlined = /*#__PURE__*/ makeIcon('TeamOutlined', svg);
