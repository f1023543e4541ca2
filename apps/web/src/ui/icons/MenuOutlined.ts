import svg from '@ant-design/icons-svg/inline-svg/outlined/menu.svg?raw';
import { makeIcon } from './makeIcon';

export const MenuOutlined = /*#__PURE__*/ makeIcon('MenuOutlined', svg);
