import svg from '@ant-design/icons-svg/inline-svg/outlined/dashboard.svg?raw';
import { makeIcon } from './makeIcon';

export const DashboardOutlined = /*#__PURE__*/ makeIcon('DashboardOutlined', svg);
