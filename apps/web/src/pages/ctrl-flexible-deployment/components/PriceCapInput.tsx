import { formatYuan } from '@slg/shared';
import { InputNumber, Radio, Slider, Typography } from 'antd';
import { ELASTIC_TEXTS } from '../texts';

const T = ELASTIC_TEXTS.fields;

interface PriceCapInputProps {
  id?: string;
  /** Fen per GPU-hour; null or undefined: no cap. */
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** The stock's price range, for the slider and the hint (null without stock). */
  range: { minFen: number; maxFen: number } | null;
}

/** 不限价格, or a cap per GPU-hour set on a slider over the stock's range or typed in yuan. */
export function PriceCapInput({ id, value, onChange, range }: PriceCapInputProps) {
  const limited = typeof value === 'number';
  const set = (fen: number | null) => onChange?.(fen);
  return (
    <div className="slg-elastic-stack">
      <Radio.Group
        id={id}
        aria-label={T.priceMax}
        optionType="button"
        value={limited ? 'limited' : 'any'}
        options={[
          { value: 'any', label: T.priceUnlimited },
          { value: 'limited', label: T.priceLimited },
        ]}
        onChange={(event) => set(event.target.value === 'limited' ? (range?.maxFen ?? 100) : null)}
      />
      {limited ? (
        <div className="slg-elastic-price-cap">
          {range && range.maxFen > range.minFen ? (
            <Slider
              className="slg-elastic-price-slider"
              min={range.minFen}
              max={range.maxFen}
              step={1}
              value={Math.min(Math.max(value, range.minFen), range.maxFen)}
              tooltip={{ formatter: (fen) => (typeof fen === 'number' ? formatYuan(fen) : null) }}
              onChange={(fen: number) => set(fen)}
              ariaLabelForHandle={T.priceMax}
            />
          ) : null}
          <InputNumber<number>
            aria-label={T.priceYuan}
            min={0.01}
            max={100_000}
            step={0.1}
            precision={2}
            value={value / 100}
            suffix={T.priceYuan}
            onChange={(yuan) => {
              if (typeof yuan === 'number') set(Math.round(yuan * 100));
            }}
            className="slg-elastic-price-input"
          />
        </div>
      ) : null}
      {range ? (
        <Typography.Text type="secondary" className="slg-elastic-note">
          {T.priceRange(range.minFen, range.maxFen)}
        </Typography.Text>
      ) : null}
    </div>
  );
}
