import svg from '@ant-design/icons-svg/inline-svg/outlined/calendar.svg?raw';
import { makeIcon } from './makeIcon';

export const CalendarOutlined = /*#__PURE__*/ makeIcon('CalendarOutlined', svg);
