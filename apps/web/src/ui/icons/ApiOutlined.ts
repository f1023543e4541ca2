import svg from '@ant-design/icons-svg/inline-svg/outlined/api.svg?raw';
import { makeIcon } from './makeIcon';

export const ApiOutlined = /*#__PURE__*/ makeIcon('ApiOutlined', svg);
