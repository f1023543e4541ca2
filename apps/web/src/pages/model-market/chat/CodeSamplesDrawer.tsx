import { Drawer, Tabs, Typography } from 'antd';
import { Link } from 'react-router';
import { OPENAI_BASE } from '../../../api/models';
import { curlSample, pythonSample, type SampleParams } from '../format';
import { MODEL_PATHS, MODEL_TEXTS } from '../texts';

const T = MODEL_TEXTS.code;

function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <Typography.Paragraph className="slg-model-code" copyable={{ text: code }}>
      <pre aria-label={`${label} 示例`}>
        <code>{code}</code>
      </pre>
    </Typography.Paragraph>
  );
}

interface CodeSamplesDrawerProps {
  open: boolean;
  onClose: () => void;
  model: string;
  maxTokens: number;
  temperature: number;
}

/** 代码示例: the same call with curl and with the openai package, at this site's `/v1`, with a placeholder key. */
export function CodeSamplesDrawer({ open, onClose, model, maxTokens, temperature }: CodeSamplesDrawerProps) {
  const baseUrl = `${window.location.origin}${OPENAI_BASE}`;
  const params: SampleParams = { baseUrl, model, maxTokens, temperature, apiKey: T.placeholderKey, prompt: T.samplePrompt };
  return (
    <Drawer open={open} onClose={onClose} title={T.title} size={640} className="slg-model-drawer" closable={{ 'aria-label': T.close }}>
      <Typography.Paragraph>
        {T.intro}
        <Link to={MODEL_PATHS.apiTokens}>{T.tokenLink}</Link>
        {T.tokenLinkSuffix}
      </Typography.Paragraph>
      <div className="slg-model-base-url">
        <Typography.Text type="secondary">{T.baseUrl}</Typography.Text>
        <Typography.Text code copyable={{ text: baseUrl }} className="slg-model-break">
          {baseUrl}
        </Typography.Text>
      </div>
      <Tabs
        items={[
          { key: 'curl', label: T.curl, children: <CodeBlock code={curlSample(params)} label={T.curl} /> },
          {
            key: 'python',
            label: T.python,
            children: (
              <>
                <Typography.Paragraph type="secondary" className="slg-model-note">
                  {T.pythonHint}
                </Typography.Paragraph>
                <CodeBlock code={pythonSample(params)} label={T.python} />
              </>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
