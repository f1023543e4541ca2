import svg from '@ant-design/icons-svg/inline-svg/outlined/cluster.svg?raw';
import { makeIcon } from './makeIcon';

export const ClusterOutlined = /*#__PURE__*/ makeIcon('ClusterOutlined', svg);
