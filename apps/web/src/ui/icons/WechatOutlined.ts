import svg from '@ant-design/icons-svg/inline-svg/outlined/wechat.svg?raw';
import { makeIcon } from './makeIcon';

export const WechatOutlined = /*#__PURE__*/ makeIcon('WechatOutlined', svg);
