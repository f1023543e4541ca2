import svg from '@ant-design/icons-svg/inline-svg/outlined/appstore.svg?raw';
import { makeIcon } from './makeIcon';

export const AppstoreOutlined = /*#__PURE__*/ makeIcon('AppstoreOutlined', svg);
