import svg from '@ant-design/icons-svg/inline-svg/outlined/file-protect.svg?raw';
import { makeIcon } from './makeIcon';

export const FileProtectOutlined = /*#__PURE__*/ makeIcon('FileProtectOutlined', svg);
