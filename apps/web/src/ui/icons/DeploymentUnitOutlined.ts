import svg from '@ant-design/icons-svg/inline-svg/outlined/deployment-unit.svg?raw';
import { makeIcon } from './makeIcon';

export const DeploymentUnitOutlined = /*#__PURE__*/ makeIcon('DeploymentUnitOutlined', svg);
