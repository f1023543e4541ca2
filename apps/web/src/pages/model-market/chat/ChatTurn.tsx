import { LoadingOutlined } from '@ant-design/icons';
import { formatYuan } from '@slg/shared';
import { Alert, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import type { ChatUsage } from '../../../api/models';
import { MODEL_PATHS, MODEL_TEXTS } from '../texts';

const T = MODEL_TEXTS.chat;

export type AnswerStatus = 'streaming' | 'done' | 'stopped' | 'error';

export interface UserTurn {
  id: number;
  role: 'user';
  content: string;
}

export interface AnswerError {
  message: string;
  code: string | null;
  retryAfterSeconds: number | undefined;
}

export interface AssistantTurn {
  id: number;
  role: 'assistant';
  /** The model's name when it was asked. */
  modelName: string;
  content: string;
  status: AnswerStatus;
  usage: ChatUsage | null;
  finishReason: string | null;
  /** What went wrong; null when the client already said it (the sign-in page). */
  error: AnswerError | null;
}

export type Turn = UserTurn | AssistantTurn;

/** 输入 / 输出 token, the cost and the free tokens of one answer. */
export function UsageLine({ usage }: { usage: ChatUsage }) {
  return (
    <div className="slg-chat-usage">
      <span>{T.tokens(usage.promptTokens, usage.completionTokens)}</span>
      {usage.costFen !== null ? <span>{T.cost(formatYuan(usage.costFen))}</span> : null}
      {usage.freeTokens > 0 ? <span>{T.freeTokens(usage.freeTokens)}</span> : null}
    </div>
  );
}

function ErrorAlert({ error }: { error: AnswerError }) {
  const message = error.retryAfterSeconds ? `${error.message}${T.retryAfter(error.retryAfterSeconds)}` : error.message;
  return (
    <Alert
      type="error"
      showIcon
      className="slg-chat-error"
      title={message}
      action={error.code === 'insufficient_quota' ? <Link to={MODEL_PATHS.recharge}>{T.recharge}</Link> : undefined}
    />
  );
}

/** One message of the conversation: the question, or the answer as it streams in with its usage. */
export function ChatTurn({ turn }: { turn: Turn }) {
  if (turn.role === 'user') {
    return (
      <li className="slg-chat-turn slg-chat-turn--user">
        <div className="slg-chat-who">{T.you}</div>
        <div className="slg-chat-bubble">{turn.content}</div>
      </li>
    );
  }
  const streaming = turn.status === 'streaming';
  let body;
  if (turn.content) body = turn.content;
  else if (streaming) body = <Typography.Text type="secondary">{T.waiting}</Typography.Text>;
  else if (turn.status === 'done') body = <Typography.Text type="secondary">{T.emptyAnswer}</Typography.Text>;
  return (
    <li className="slg-chat-turn slg-chat-turn--assistant" aria-busy={streaming}>
      <div className="slg-chat-who">
        {T.assistant} · {turn.modelName}
        {streaming ? (
          <span className="slg-chat-generating">
            <LoadingOutlined aria-hidden /> {T.generating}
          </span>
        ) : null}
        {turn.status === 'stopped' ? <Tag className="slg-chat-tag">{T.stopped}</Tag> : null}
      </div>
      {body ? (
        <div className="slg-chat-bubble" data-testid="chat-answer">
          {body}
        </div>
      ) : null}
      {turn.status === 'done' && turn.finishReason === 'length' ? (
        <Typography.Text type="warning" className="slg-chat-note">
          {T.truncated}
        </Typography.Text>
      ) : null}
      {turn.status === 'stopped' ? (
        <Typography.Text type="secondary" className="slg-chat-note">
          {T.stoppedBilled}
        </Typography.Text>
      ) : null}
      {turn.error ? <ErrorAlert error={turn.error} /> : null}
      {turn.usage ? <UsageLine usage={turn.usage} /> : null}
      {!turn.usage && turn.status === 'done' ? <Typography.Text type="secondary" className="slg-chat-note">{T.noUsage}</Typography.Text> : null}
    </li>
  );
}
