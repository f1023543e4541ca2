import svg from '@ant-design/icons-svg/inline-svg/outlined/code.svg?raw';
import { makeIcon } from './makeIcon';

export const CodeOutlined = /*#__PURE__*/ makeIcon('CodeOutlined', svg);
