import svg from '@ant-design/icons-svg/inline-svg/filled/info-circle.svg?raw';
import { makeIcon } from './makeIcon';

export const InfoCircleFilled = /*#__PURE__*/ makeIcon('InfoCircleFilled', svg);
