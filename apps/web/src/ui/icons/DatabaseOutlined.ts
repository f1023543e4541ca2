import svg from '@ant-design/icons-svg/inline-svg/outlined/database.svg?raw';
import { makeIcon } from './makeIcon';

export const DatabaseOutlined = /*#__PURE__*/ makeIcon('DatabaseOutlined', svg);
