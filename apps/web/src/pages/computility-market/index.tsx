import { CHARGE_UNIT_LABELS, CHARGING_RULES, formatYuan, MAX_GPUS_PER_INSTANCE, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import { Card, Radio, Select, Skeleton, Space, Typography } from 'antd';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useMarketHostsQuery, useMarketOverviewQuery, type MarketFigures, type MarketOverview, type MarketSort } from '../../api/compute';
import { LinkButton } from '../../components/LinkButton';
import { PageHeader } from '../../components/PageHeader';
import { QueryError, StaleDataAlert } from '../../components/QueryError';
import { useIsPhone } from '../../layouts/useIsPhone';
import { useUserStore } from '../../stores/user';
import { withAntd } from '../../theme/AntdScope';
import { PAGE_SIZE, useListState } from '../ctrl-cost-center/shared/useListState';
import { COMPUTE_PATHS } from '../ctrl-container-instances/paths';
import { HostList, MarketEmpty } from './HostList';
import { MyStockAlertsButton, StockAlertOffer } from './StockAlertList';
import './market.css';
import { MARKET_FILTER_KEYS, marketStepOf, parseMarketFilters, type MarketStep } from './marketFilters';
import { MARKET_TEXTS } from './texts';

const T = MARKET_TEXTS;
const ANY = '';
const GPU_COUNTS = Array.from({ length: MAX_GPUS_PER_INSTANCE }, (_, index) => index + 1);

/** One step of the choice (计费方式, GPU 型号 …): a labelled group the sub-path can scroll to. */
function Step({ step, title, focused, children }: { step: MarketStep; title: string; focused: boolean; children: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!focused) return;
    const heading = headingRef.current;
    heading?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
    heading?.focus({ preventScroll: true });
  }, [focused]);
  return (
    <section className={focused ? 'slg-market-step is-focused' : 'slg-market-step'} aria-labelledby={`market-${step}`}>
      <h2 id={`market-${step}`} ref={headingRef} tabIndex={-1} className="slg-market-step-title">
        {title}
      </h2>
      <div className="slg-market-step-body">{children}</div>
    </section>
  );
}

/** A choice with its figures: name on the first line, free / total and the lowest price under it. */
function ChoiceLabel({ name, figures, unit, missing = false }: { name: ReactNode; figures: MarketFigures | undefined; unit: string; missing?: boolean }) {
  return (
    <span className="slg-market-choice-label">
      <span className="slg-market-choice-name">{name}</span>
      {missing ? <span className="slg-market-choice-meta">{T.unavailable}</span> : null}
      {figures ? (
        <span className="slg-market-choice-meta">
          <span>{T.freeOfTotal(figures.gpuFree, figures.gpuTotal)}</span>
          {figures.hostCount > 0 ? <span>{T.fromPrice(formatYuan(figures.minPricePerGpuFen), unit)}</span> : null}
        </span>
      ) : null}
    </span>
  );
}

function cellOf(overview: MarketOverview, zoneId: string, gpuModelId: string): MarketFigures | undefined {
  return overview.cells.find((cell) => cell.zoneId === zoneId && cell.gpuModelId === gpuModelId);
}

/** 算力市场: choose 计费方式, GPU 型号, GPU 数量 and 地区, then rent one of the hosts that can take it. */
function MarketPage() {
  const location = useLocation();
  const phone = useIsPhone();
  const signedIn = useUserStore((state) => Boolean(state.token));
  const list = useListState(MARKET_FILTER_KEYS);
  const filters = parseMarketFilters(list.filters);
  const focusedStep = marketStepOf(location.pathname);
  const overview = useMarketOverviewQuery(filters.chargingRuleId);
  const hosts = useMarketHostsQuery({
    page: list.page,
    pageSize: PAGE_SIZE,
    chargingRuleId: filters.chargingRuleId,
    gpuModelId: filters.gpuModelId,
    gpuNum: filters.gpuNum,
    zoneId: filters.zoneId,
    sort: filters.sort,
  });
  const filtered = Boolean(filters.gpuModelId || filters.gpuNum || filters.zoneId);
  const unit = overview.data?.unit ?? CHARGE_UNIT_LABELS.hour;

  const methodStep = (
    <Step step="method" title={T.steps.method} focused={focusedStep === 'method'}>
      <Radio.Group
        aria-labelledby="market-method"
        name="market-method"
        optionType="button"
        value={filters.chargingRuleId}
        onChange={(event) => {
          const id = Number(event.target.value);
          list.setFilters({ chargingRuleId: id === USAGE_CHARGING_RULE_ID ? undefined : String(id) });
        }}
        options={CHARGING_RULES.map((rule) => ({ value: rule.id, label: rule.showName }))}
      />
      <Typography.Text type="secondary" className="slg-market-note">
        {filters.chargingRuleId === USAGE_CHARGING_RULE_ID ? T.methodUsage : T.methodPackage}
      </Typography.Text>
    </Step>
  );

  let modelChoices: ReactNode;
  let zoneChoices: ReactNode;
  if (overview.isPending) {
    modelChoices = <Skeleton active title={false} paragraph={{ rows: 2 }} />;
    zoneChoices = modelChoices;
  } else if (overview.isError && !overview.data) {
    modelChoices = <QueryError title={T.overviewFailed} error={overview.error} onRetry={() => void overview.refetch()} />;
    zoneChoices = null;
  } else {
    const data = overview.data;
    modelChoices = (
      <Radio.Group
        aria-labelledby="market-model"
        name="market-model"
        className="slg-market-choices"
        value={filters.gpuModelId ?? ANY}
        onChange={(event) => list.setFilters({ gpuModelId: String(event.target.value) })}
      >
        <Radio value={ANY} className="slg-market-choice">
          <ChoiceLabel name={T.all} figures={undefined} unit={unit} />
        </Radio>
        {data.gpuModels.map((model) => {
          const figures = filters.zoneId ? cellOf(data, filters.zoneId, model.gpuModelId) : model;
          return (
            <Radio key={model.gpuModelId} value={model.gpuModelId} className="slg-market-choice" disabled={!figures && filters.gpuModelId !== model.gpuModelId}>
              <ChoiceLabel
                name={
                  <>
                    {model.gpuModelName} <span className="slg-market-choice-memory">{T.memory(model.gpuMemoryGb)}</span>
                  </>
                }
                figures={figures}
                missing={!figures}
                unit={unit}
              />
            </Radio>
          );
        })}
      </Radio.Group>
    );
    zoneChoices = (
      <Radio.Group
        aria-labelledby="market-region"
        name="market-region"
        className="slg-market-choices"
        value={filters.zoneId ?? ANY}
        onChange={(event) => list.setFilters({ zoneId: String(event.target.value) })}
      >
        <Radio value={ANY} className="slg-market-choice">
          <ChoiceLabel name={T.all} figures={undefined} unit={unit} />
        </Radio>
        {data.zones.map((zone) => {
          const figures = filters.gpuModelId ? cellOf(data, zone.zoneId, filters.gpuModelId) : zone;
          return (
            <Radio key={zone.zoneId} value={zone.zoneId} className="slg-market-choice" disabled={!figures && filters.zoneId !== zone.zoneId}>
              <ChoiceLabel
                name={
                  <>
                    {zone.zoneName} <span className="slg-market-choice-memory">{zone.region}</span>
                  </>
                }
                figures={figures}
                missing={!figures}
                unit={unit}
              />
            </Radio>
          );
        })}
      </Radio.Group>
    );
  }

  const quantityStep = (
    <Step step="quantity" title={T.steps.quantity} focused={focusedStep === 'quantity'}>
      <Radio.Group
        aria-labelledby="market-quantity"
        name="market-quantity"
        optionType="button"
        className="slg-market-counts"
        value={filters.gpuNum ?? 0}
        onChange={(event) => {
          const count = Number(event.target.value);
          list.setFilters({ gpuNum: count > 0 ? String(count) : undefined });
        }}
        options={[{ value: 0, label: T.any }, ...GPU_COUNTS.map((count) => ({ value: count, label: T.gpuCount(count) }))]}
      />
    </Step>
  );

  const hostData = hosts.data;
  let hostContent: ReactNode;
  if (hosts.isError && !hostData) {
    hostContent = <QueryError variant="page" title={T.hosts.loadFailed} error={hosts.error} onRetry={() => void hosts.refetch()} />;
  } else {
    hostContent = (
      <>
        {hosts.isError ? (
          <StaleDataAlert className="slg-market-alert" title={T.hosts.refreshFailed} error={hosts.error} onRetry={() => void hosts.refetch()} />
        ) : null}
        <StockAlertOffer overview={overview.data} zoneId={filters.zoneId} gpuModelId={filters.gpuModelId} gpuNum={filters.gpuNum} />
        <HostList
          hosts={hostData?.list ?? []}
          pending={hosts.isPending}
          loading={hosts.isFetching && hosts.isPlaceholderData}
          phone={phone}
          wantedGpus={filters.gpuNum ?? 1}
          page={list.page}
          total={hostData?.total ?? 0}
          pageSize={PAGE_SIZE}
          onPageChange={list.setPage}
          empty={<MarketEmpty filtered={filtered} onClear={() => list.setFilters({ gpuModelId: undefined, gpuNum: undefined, zoneId: undefined })} />}
        />
      </>
    );
  }

  return (
    <div className="slg-page">
      <PageHeader
        title={T.title}
        description={T.description}
        extra={
          signedIn ? (
            <Space wrap>
              <MyStockAlertsButton />
              <LinkButton to={COMPUTE_PATHS.list}>{T.myInstances}</LinkButton>
            </Space>
          ) : null
        }
      />
      <Card className="slg-market-filters">
        {methodStep}
        <Step step="model" title={T.steps.model} focused={focusedStep === 'model'}>
          {modelChoices}
        </Step>
        {quantityStep}
        <Step step="region" title={T.steps.region} focused={focusedStep === 'region'}>
          {zoneChoices}
        </Step>
      </Card>
      <Card
        className="slg-market-hosts"
        title={
          <span>
            {T.hosts.title}
            {hostData ? <Typography.Text type="secondary" className="slg-market-count">{T.hosts.count(hostData.total)}</Typography.Text> : null}
          </span>
        }
        extra={
          <Select<MarketSort>
            aria-label={T.hosts.sort}
            value={filters.sort}
            onChange={(sort) => list.setFilters({ sort: sort === 'price' ? undefined : sort })}
            options={[
              { value: 'price', label: T.hosts.sortPrice },
              { value: 'free', label: T.hosts.sortFree },
            ]}
            popupMatchSelectWidth={false}
          />
        }
      >
        {hostContent}
      </Card>
    </div>
  );
}

export default withAntd(MarketPage);
