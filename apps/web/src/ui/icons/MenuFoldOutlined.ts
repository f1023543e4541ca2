import svg from '@ant-design/icons-svg/inline-svg/outlined/menu-fold.svg?raw';
import { makeIcon } from './makeIcon';

export const MenuFoldOutlined = /*#__PURE__*/ makeIcon('MenuFoldOutlined', svg);
