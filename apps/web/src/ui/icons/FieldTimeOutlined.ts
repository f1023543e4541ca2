import svg from '@ant-design/icons-svg/inline-svg/outlined/field-time.svg?raw';
import { makeIcon } from './makeIcon';

export const FieldTimeOutlined = /*#__PURE__*/ makeIcon('FieldTimeOutlined', svg);
