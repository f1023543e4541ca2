import { PageHeader } from '../../../components/PageHeader';
import { withAntd } from '../../../theme/AntdScope';
import { ModelCatalogue } from '../components/ModelCatalogue';
import '../models.css';
import { MODEL_TEXTS } from '../texts';

const T = MODEL_TEXTS.visual;

/** 模型市场 › 视觉模型: the visual models of the catalogue, each with 体验. */
function VisualModelPage() {
  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <ModelCatalogue type="visual" />
    </div>
  );
}

export default withAntd(VisualModelPage);
