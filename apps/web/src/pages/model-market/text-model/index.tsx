import { PageHeader } from '../../../components/PageHeader';
import { withAntd } from '../../../theme/AntdScope';
import { ModelCatalogue } from '../components/ModelCatalogue';
import '../models.css';
import { MODEL_TEXTS } from '../texts';

const T = MODEL_TEXTS.text;

/** 模型市场 › 文本模型: the text models of the catalogue, each with 体验. */
function TextModelPage() {
  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <ModelCatalogue type="text" />
    </div>
  );
}

export default withAntd(TextModelPage);
