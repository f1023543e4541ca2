import svg from '@ant-design/icons-svg/inline-svg/outlined/moon.svg?raw';
import { makeIcon } from './makeIcon';

export const MoonOutlined = /*#__PURE__*/ makeIcon('MoonOutlined', svg);
