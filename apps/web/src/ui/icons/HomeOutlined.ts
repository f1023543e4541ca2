import svg from '@ant-design/icons-svg/inline-svg/outlined/home.svg?raw';
import { makeIcon } from './makeIcon';

export const HomeOutlined = /*#__PURE__*/ makeIcon('HomeOutlined', svg);
