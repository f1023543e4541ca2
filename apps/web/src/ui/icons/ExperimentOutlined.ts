import svg from '@ant-design/icons-svg/inline-svg/outlined/experiment.svg?raw';
import { makeIcon } from './makeIcon';

export const ExperimentOutlined = /*#__PURE__*/ makeIcon('ExperimentOutlined', svg);
