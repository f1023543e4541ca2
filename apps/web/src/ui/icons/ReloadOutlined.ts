import svg from '@ant-design/icons-svg/inline-svg/outlined/reload.svg?raw';
import { makeIcon } from './makeIcon';

export const ReloadOutlined = /*#__PURE__*/ makeIcon('ReloadOutlined', svg);
