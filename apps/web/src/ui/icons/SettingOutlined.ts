import svg from '@ant-design/icons-svg/inline-svg/outlined/setting.svg?raw';
import { makeIcon } from './makeIcon';

export const SettingOutlined = /*#__PURE__*/ makeIcon('SettingOutlined', svg);
