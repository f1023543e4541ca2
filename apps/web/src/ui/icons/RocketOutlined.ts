import svg from '@ant-design/icons-svg/inline-svg/outlined/rocket.svg?raw';
import { makeIcon } from './makeIcon';

export const RocketOutlined = /*#__PURE__*/ makeIcon('RocketOutlined', svg);
