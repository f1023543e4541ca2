import svg from '@ant-design/icons-svg/inline-svg/filled/close-circle.svg?raw';
import { makeIcon } from './makeIcon';

export const CloseCircleFilled = /*#__PURE__*/ makeIcon('CloseCircleFilled', svg);
