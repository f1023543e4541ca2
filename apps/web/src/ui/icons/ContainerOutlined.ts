import svg from '@ant-design/icons-svg/inline-svg/outlined/container.svg?raw';
import { makeIcon } from './makeIcon';

export const ContainerOutlined = /*#__PURE__*/ makeIcon('ContainerOutlined', svg);
