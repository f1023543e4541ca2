import svg from '@ant-design/icons-svg/inline-svg/outlined/down.svg?raw';
import { makeIcon } from './makeIcon';

export const DownOutlined = /*#__PURE__*/ makeIcon('DownOutlined', svg);
