import svg from '@ant-design/icons-svg/inline-svg/outlined/mail.svg?raw';
import { makeIcon } from './makeIcon';

export const MailOutlined = /*#__PURE__*/ makeIcon('MailOutlined', svg);
