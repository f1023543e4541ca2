import { PageHeader } from '../../../components/PageHeader';
import { withAntd } from '../../../theme/AntdScope';
import { ModelCatalogue } from '../components/ModelCatalogue';
import '../models.css';
import { MODEL_TEXTS } from '../texts';

const T = MODEL_TEXTS.center;

/** 模型中心 (public): the whole catalogue with the type filter; 体验 opens 模型对话 (visitors sign in first). */
function ModelCenterPage() {
  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <ModelCatalogue />
    </div>
  );
}

export default withAntd(ModelCenterPage);
