import svg from '@ant-design/icons-svg/inline-svg/outlined/hdd.svg?raw';
import { makeIcon } from './makeIcon';

export const HddOutlined = /*#__PURE__*/ makeIcon('HddOutlined', svg);
