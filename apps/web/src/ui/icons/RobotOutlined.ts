import svg from '@ant-design/icons-svg/inline-svg/outlined/robot.svg?raw';
import { makeIcon } from './makeIcon';

export const RobotOutlined = /*#__PURE__*/ makeIcon('RobotOutlined', svg);
