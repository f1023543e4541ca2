import svg from '@ant-design/icons-svg/inline-svg/outlined/mobile.svg?raw';
import { makeIcon } from './makeIcon';

export const MobileOutlined = /*#__PURE__*/ makeIcon('MobileOutlined', svg);
