import svg from '@ant-design/icons-svg/inline-svg/filled/exclamation-circle.svg?raw';
import { makeIcon } from './makeIcon';

export const ExclamationCircleFilled = /*#__PURE__*/ makeIcon('ExclamationCircleFilled', svg);
