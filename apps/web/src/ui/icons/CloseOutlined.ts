import svg from '@ant-design/icons-svg/inline-svg/outlined/close.svg?raw';
import { makeIcon } from './makeIcon';

export const CloseOutlined = /*#__PURE__*/ makeIcon('CloseOutlined', svg);
