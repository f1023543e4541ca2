import svg from '@ant-design/icons-svg/inline-svg/outlined/loading.svg?raw';
import { makeIcon } from './makeIcon';

export const LoadingOutlined = /*#__PURE__*/ makeIcon('LoadingOutlined', svg);
