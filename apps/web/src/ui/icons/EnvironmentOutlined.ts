import svg from '@ant-design/icons-svg/inline-svg/outlined/environment.svg?raw';
import { makeIcon } from './makeIcon';

export const EnvironmentOutlined = /*#__PURE__*/ makeIcon('EnvironmentOutlined', svg);
