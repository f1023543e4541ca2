import { Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { ModelType, ModelView } from '../../../api/models';
import { formatContextLength, formatPricePerMillion } from '../format';
import { MODEL_TEXTS } from '../texts';

const T = MODEL_TEXTS.card;

const TYPE_COLORS: Record<ModelType, string> = { text: 'blue', visual: 'purple' };

export function ModelTypeTag({ type }: { type: ModelType }) {
  return <Tag color={TYPE_COLORS[type]}>{T.typeLabel(type)}</Tag>;
}

export function TestModelTag() {
  return (
    <Tooltip title={T.testHint}>
      <Tag color="warning">{T.test}</Tag>
    </Tooltip>
  );
}

/** One model of the catalogue: what it is, its facts and its prices per million tokens, with 体验. */
export function ModelCard({ model, actions }: { model: ModelView; actions?: ReactNode }) {
  const facts: { label: string; value: ReactNode }[] = [
    { label: T.contextLength, value: formatContextLength(model.contextLength) },
    { label: T.paramSize, value: model.paramSize || T.unknown },
    { label: T.license, value: model.license || T.unknown },
  ];
  const prices = [
    { label: T.input, value: formatPricePerMillion(model.inputPriceFen) },
    { label: T.output, value: formatPricePerMillion(model.outputPriceFen) },
  ];

  return (
    <article className="slg-model-card" aria-label={model.name}>
      <div className="slg-model-card-head">
        <div className="slg-model-card-title">
          <Typography.Text strong className="slg-model-name">
            {model.name}
          </Typography.Text>
          <ModelTypeTag type={model.type} />
          {model.isTest ? <TestModelTag /> : null}
        </div>
        <Typography.Text type="secondary" className="slg-model-provider">
          {T.provider}：{model.provider}
        </Typography.Text>
      </div>
      <Typography.Paragraph type={model.description ? undefined : 'secondary'} className="slg-model-description">
        {model.description || T.noDescription}
      </Typography.Paragraph>
      {model.tags.length > 0 ? (
        <ul className="slg-model-tags" aria-label={T.tags}>
          {model.tags.map((tag) => (
            <li key={tag}>
              <Tag>{tag}</Tag>
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="slg-model-facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      <dl className="slg-model-prices">
        {prices.map((price) => (
          <div key={price.label}>
            <dt>{price.label}</dt>
            <dd>{price.value}</dd>
          </div>
        ))}
      </dl>
      <div className="slg-model-id">
        <Typography.Text type="secondary">{T.modelId}</Typography.Text>
        <Typography.Text code copyable={{ text: model.id }} className="slg-model-break">
          {model.id}
        </Typography.Text>
      </div>
      {actions ? <div className="slg-model-card-actions">{actions}</div> : null}
    </article>
  );
}
