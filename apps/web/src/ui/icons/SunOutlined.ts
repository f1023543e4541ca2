import svg from '@ant-design/icons-svg/inline-svg/outlined/sun.svg?raw';
import { makeIcon } from './makeIcon';

export const SunOutlined = /*#__PURE__*/ makeIcon('SunOutlined', svg);
