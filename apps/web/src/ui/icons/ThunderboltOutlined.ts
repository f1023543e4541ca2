import svg from '@ant-design/icons-svg/inline-svg/outlined/thunderbolt.svg?raw';
import { makeIcon } from './makeIcon';

export const ThunderboltOutlined = /*#__PURE__*/ makeIcon('ThunderboltOutlined', svg);
