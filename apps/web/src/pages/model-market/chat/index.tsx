import { ClearOutlined, CodeOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Collapse, Empty, Form, Input, InputNumber, Select, Skeleton, Slider, Space } from 'antd';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  ChatError,
  isChatError,
  streamChatCompletion,
  useModelOptionsQuery,
  type ModelView,
} from '../../../api/models';
import { queryKeys } from '../../../api/queryKeys';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { withAntd } from '../../../theme/AntdScope';
import { TestModelTag } from '../components/ModelCard';
import '../models.css';
import { MODEL_TEXTS, MODEL_TYPE_LABELS } from '../texts';
import { ChatTurn, type AssistantTurn, type Turn } from './ChatTurn';
import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, MAX_TEMPERATURE, messagesOf } from './conversation';
import { CodeSamplesDrawer } from './CodeSamplesDrawer';

const T = MODEL_TEXTS.chat;

/** Within this many pixels of the bottom the conversation follows the answer as it grows. */
const STICK_PX = 48;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The model of `?model=`, else the first of the catalogue. */
function useChosenModel(models: readonly ModelView[] | undefined) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('model');
  const found = requested ? models?.find((model) => model.id === requested) : undefined;
  const model = requested ? found : models?.[0];
  const choose = useCallback(
    (id: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('model', id);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { model, unknown: requested && models && !found ? requested : null, choose };
}

/** 模型对话: a multi-turn conversation with a model of the catalogue, streamed, with each answer's tokens and cost. */
function ModelChatPage() {
  const queryClient = useQueryClient();
  const models = useModelOptionsQuery();
  const { model, unknown, choose } = useChosenModel(models.data);
  const [systemPrompt, setSystemPrompt] = useState('');
  const [maxTokens, setMaxTokens] = useState(DEFAULT_MAX_TOKENS);
  const [temperature, setTemperature] = useState(DEFAULT_TEMPERATURE);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [draft, setDraft] = useState('');
  const [generating, setGenerating] = useState(false);
  const [showCode, setShowCode] = useState(false);
  const controllerRef = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const logRef = useRef<HTMLDivElement>(null);
  const stickRef = useRef(true);

  const maxTokensLimit = model?.contextLength ?? Number.MAX_SAFE_INTEGER;
  const effectiveMaxTokens = clamp(maxTokens, 1, maxTokensLimit);

  // Leaving the page stops the answer in progress.
  useEffect(() => () => controllerRef.current?.abort(), []);

  // Follow the answer while the reader is at the bottom of the conversation.
  useEffect(() => {
    const log = logRef.current;
    if (log && stickRef.current) log.scrollTop = log.scrollHeight;
  }, [turns]);

  const updateAnswer = useCallback((id: number, change: (turn: AssistantTurn) => AssistantTurn) => {
    setTurns((current) => current.map((turn) => (turn.id === id && turn.role === 'assistant' ? change(turn) : turn)));
  }, []);

  async function send() {
    const question = draft.trim();
    if (!question || !model || generating) return;
    const userTurn: Turn = { id: nextId.current++, role: 'user', content: question };
    const answerId = nextId.current++;
    const answer: AssistantTurn = {
      id: answerId,
      role: 'assistant',
      modelName: model.name,
      content: '',
      status: 'streaming',
      usage: null,
      finishReason: null,
      error: null,
    };
    const messages = messagesOf(systemPrompt, [...turns, userTurn]);
    const controller = new AbortController();
    controllerRef.current = controller;
    stickRef.current = true;
    setTurns((current) => [...current, userTurn, answer]);
    setDraft('');
    setGenerating(true);
    try {
      const done = await streamChatCompletion({
        model: model.id,
        messages,
        maxTokens: effectiveMaxTokens,
        temperature,
        signal: controller.signal,
        onDelta: (piece) => updateAnswer(answerId, (turn) => ({ ...turn, content: turn.content + piece })),
      });
      updateAnswer(answerId, (turn) => ({
        ...turn,
        content: done.content || turn.content,
        usage: done.usage,
        finishReason: done.finishReason,
        status: done.aborted ? 'stopped' : 'done',
      }));
    } catch (error) {
      const failure = isChatError(error) ? error : new ChatError(0, T.failed);
      updateAnswer(answerId, (turn) => ({
        ...turn,
        content: turn.content || failure.partial,
        status: 'error',
        error: failure.notified ? null : { message: failure.message, code: failure.code, retryAfterSeconds: failure.retryAfterSeconds },
      }));
    } finally {
      // Only the call in progress ends the generating state (clearing a conversation stops it first).
      if (controllerRef.current === controller) {
        controllerRef.current = null;
        setGenerating(false);
      }
    }
    // An answer is billed, also one stopped or broken off: the balance in the header is read again.
    void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
  }

  function stop() {
    controllerRef.current?.abort();
  }

  /** Stops an answer in progress (its call ends the generating state) and starts over. */
  function clear() {
    controllerRef.current?.abort();
    setTurns([]);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends; Shift + Enter is a new line; Enter that confirms an IME composition is neither.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  }

  let settings;
  if (models.isError && !models.data) {
    settings = <QueryError title={T.modelsFailed} error={models.error} onRetry={() => void models.refetch()} />;
  } else if (models.isPending) {
    settings = <Skeleton active paragraph={{ rows: 3 }} />;
  } else if (!models.data || models.data.length === 0) {
    settings = <Empty description={T.noModels} />;
  } else {
    settings = (
      <Form layout="vertical" className="slg-chat-form" requiredMark={false}>
        <Form.Item label={T.model} htmlFor="slg-chat-model">
          <Select<string>
            id="slg-chat-model"
            aria-label={T.model}
            placeholder={T.modelPlaceholder}
            value={model?.id}
            showSearch={{ optionFilterProp: 'label' }}
            onChange={choose}
            options={models.data.map((option) => ({
              value: option.id,
              label: option.name,
              meta: [MODEL_TYPE_LABELS[option.type], option.isTest ? MODEL_TEXTS.card.test : null].filter(Boolean).join(' · '),
            }))}
            optionRender={(option) => (
              <span className="slg-chat-option">
                <span className="slg-model-break">{option.label}</span>
                <span className="slg-chat-option-meta">{String(option.data.meta)}</span>
              </span>
            )}
          />
        </Form.Item>
        <Form.Item label={T.maxTokens} htmlFor="slg-chat-max-tokens" extra={T.maxTokensHint(Math.min(maxTokensLimit, 1_000_000))}>
          <InputNumber<number>
            id="slg-chat-max-tokens"
            className="slg-chat-number"
            min={1}
            max={model?.contextLength}
            precision={0}
            value={maxTokens}
            onChange={(value) => setMaxTokens(value ?? DEFAULT_MAX_TOKENS)}
          />
        </Form.Item>
        <Form.Item label={T.temperature} extra={T.temperatureHint}>
          <div className="slg-chat-temperature">
            <Slider
              className="slg-chat-slider"
              min={0}
              max={MAX_TEMPERATURE}
              step={0.1}
              value={temperature}
              onChange={setTemperature}
              aria-label={T.temperature}
            />
            <InputNumber<number>
              className="slg-chat-temperature-input"
              aria-label={T.temperature}
              min={0}
              max={MAX_TEMPERATURE}
              step={0.1}
              precision={1}
              value={temperature}
              onChange={(value) => setTemperature(value ?? DEFAULT_TEMPERATURE)}
            />
          </div>
        </Form.Item>
        <Collapse
          size="small"
          className="slg-chat-system"
          items={[
            {
              key: 'system',
              label: systemPrompt.trim() ? `${T.systemPrompt}（已设置）` : T.systemPrompt,
              children: (
                <>
                  <Input.TextArea
                    aria-label={T.systemPrompt}
                    placeholder={T.systemPromptPlaceholder}
                    autoSize={{ minRows: 3, maxRows: 10 }}
                    maxLength={4000}
                    value={systemPrompt}
                    onChange={(event) => setSystemPrompt(event.target.value)}
                  />
                  <div className="slg-chat-note">{T.systemPromptHint}</div>
                </>
              ),
            },
          ]}
        />
      </Form>
    );
  }

  return (
    <div className="slg-page">
      <PageHeader
        title={T.title}
        description={T.description}
        extra={
          <Space wrap>
            <Button icon={<CodeOutlined />} onClick={() => setShowCode(true)} disabled={!model}>
              {T.code}
            </Button>
            <Button icon={<ClearOutlined />} onClick={clear} disabled={turns.length === 0}>
              {T.clear}
            </Button>
          </Space>
        }
      />
      <div className="slg-chat-layout">
        <Card className="slg-chat-settings" title={T.settings} size="small">
          {settings}
        </Card>
        <Card className="slg-chat-main" size="small">
          {unknown ? <Alert type="warning" showIcon className="slg-chat-alert" title={T.unknownModel(unknown)} /> : null}
          {model?.isTest ? <Alert type="warning" showIcon className="slg-chat-alert" title={<><TestModelTag /> {T.testModel}</>} /> : null}
          <div
            ref={logRef}
            className="slg-chat-log"
            role="log"
            aria-label={T.conversation}
            aria-busy={generating}
            onScroll={(event) => {
              const log = event.currentTarget;
              stickRef.current = log.scrollHeight - log.scrollTop - log.clientHeight < STICK_PX;
            }}
          >
            {turns.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.emptyConversation} />
            ) : (
              <ol className="slg-chat-turns">
                {turns.map((turn) => (
                  <ChatTurn key={turn.id} turn={turn} />
                ))}
              </ol>
            )}
          </div>
          <div className="slg-chat-composer">
            <Input.TextArea
              aria-label={T.inputLabel}
              placeholder={T.inputPlaceholder}
              autoSize={{ minRows: 2, maxRows: 8 }}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={onKeyDown}
            />
            {generating ? (
              <Button danger icon={<StopOutlined />} onClick={stop} className="slg-chat-action">
                {T.stop}
              </Button>
            ) : (
              <Button type="primary" icon={<SendOutlined />} onClick={() => void send()} disabled={!draft.trim() || !model} className="slg-chat-action">
                {T.send}
              </Button>
            )}
          </div>
        </Card>
      </div>
      <CodeSamplesDrawer
        open={showCode && Boolean(model)}
        onClose={() => setShowCode(false)}
        model={model?.id ?? ''}
        maxTokens={effectiveMaxTokens}
        temperature={temperature}
      />
    </div>
  );
}

export default withAntd(ModelChatPage);
