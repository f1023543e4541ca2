import svg from '@ant-design/icons-svg/inline-svg/outlined/eye.svg?raw';
import { makeIcon } from './makeIcon';

export const EyeOutlined = /*#__PURE__*/ makeIcon('EyeOutlined', svg);
