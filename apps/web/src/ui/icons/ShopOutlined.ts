import svg from '@ant-design/icons-svg/inline-svg/outlined/shop.svg?raw';
import { makeIcon } from './makeIcon';

export const ShopOutlined = /*#__PURE__*/ makeIcon('ShopOutlined', svg);
