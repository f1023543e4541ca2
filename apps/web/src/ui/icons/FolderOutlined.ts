import svg from '@ant-design/icons-svg/inline-svg/outlined/folder.svg?raw';
import { makeIcon } from './makeIcon';

export const FolderOutlined = /*#__PURE__*/ makeIcon('FolderOutlined', svg);
