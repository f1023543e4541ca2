import svg from '@ant-design/icons-svg/inline-svg/outlined/wallet.svg?raw';
import { makeIcon } from './makeIcon';

export const WalletOutlined = /*#__PURE__*/ makeIcon('WalletOutlined', svg);
