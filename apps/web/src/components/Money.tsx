import { formatYuan } from '@slg/shared';
import { theme } from 'antd';
import './Money.css';

interface MoneyProps {
  /** Integer fen. */
  fen: number;
  /** Prefix a positive amount with `+` (a negative one always has `-`). */
  signed?: boolean;
  /** Green for positive, red for negative. */
  colored?: boolean;
  strong?: boolean;
}

/** An amount of money in yuan from integer fen (`formatYuan`), with tabular digits. */
export function Money({ fen, signed = false, colored = false, strong = false }: MoneyProps) {
  const { token } = theme.useToken();
  const text = signed && fen > 0 ? `+${formatYuan(fen)}` : formatYuan(fen);
  const color = colored ? (fen > 0 ? token.colorSuccess : fen < 0 ? token.colorError : undefined) : undefined;
  return (
    <span className={strong ? 'slg-money slg-money--strong' : 'slg-money'} style={color ? { color } : undefined}>
      {text}
    </span>
  );
}
