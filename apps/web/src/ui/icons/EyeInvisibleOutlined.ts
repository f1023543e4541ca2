import svg from '@ant-design/icons-svg/inline-svg/outlined/eye-invisible.svg?raw';
import { makeIcon } from './makeIcon';

export const EyeInvisibleOutlined = /*#__PURE__*/ makeIcon('EyeInvisibleOutlined', svg);
