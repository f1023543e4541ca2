import svg from '@ant-design/icons-svg/inline-svg/outlined/bell.svg?raw';
import { makeIcon } from './makeIcon';

export const BellOutlined = /*#__PURE__*/ makeIcon('BellOutlined', svg);
