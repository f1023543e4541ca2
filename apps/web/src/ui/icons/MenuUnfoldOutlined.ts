import svg from '@ant-design/icons-svg/inline-svg/outlined/menu-unfold.svg?raw';
import { makeIcon } from './makeIcon';

export const MenuUnfoldOutlined = /*#__PURE__*/ makeIcon('MenuUnfoldOutlined', svg);
