import svg from '@ant-design/icons-svg/inline-svg/outlined/exclamation-circle.svg?raw';
import { makeIcon } from './makeIcon';

export const ExclamationCircleOutlined = /*#__PURE__*/ makeIcon('ExclamationCircleOutlined', svg);
