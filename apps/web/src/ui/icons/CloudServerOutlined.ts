import svg from '@ant-design/icons-svg/inline-svg/outlined/cloud-server.svg?raw';
import { makeIcon } from './makeIcon';

export const CloudServerOutlined = /*#__PURE__*/ makeIcon('CloudServerOutlined', svg);
