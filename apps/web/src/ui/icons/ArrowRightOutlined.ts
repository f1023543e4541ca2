import svg from '@ant-design/icons-svg/inline-svg/outlined/arrow-right.svg?raw';
import { makeIcon } from './makeIcon';

export const ArrowRightOutlined = /*#__PURE__*/ makeIcon('ArrowRightOutlined', svg);
