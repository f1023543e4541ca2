import svg from '@ant-design/icons-svg/inline-svg/outlined/safety-certificate.svg?raw';
import { makeIcon } from './makeIcon';

export const SafetyCertificateOutlined = /*#__PURE__*/ makeIcon('SafetyCertificateOutlined', svg);
