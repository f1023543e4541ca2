import svg from '@ant-design/icons-svg/inline-svg/outlined/check.svg?raw';
import { makeIcon } from './makeIcon';

export const CheckOutlined = /*#__PURE__*/ makeIcon('CheckOutlined', svg);
