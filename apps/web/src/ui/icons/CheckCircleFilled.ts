import svg from '@ant-design/icons-svg/inline-svg/filled/check-circle.svg?raw';
import { makeIcon } from './makeIcon';

export const CheckCircleFilled = /*#__PURE__*/ makeIcon('CheckCircleFilled', svg);
