import BillingSection from './components/BillingSection';
import CtaSection from './components/CtaSection';
import FeatureSection from './components/FeatureSection';
import GpuSection from './components/GpuSection';
import HeroSection from './components/HeroSection';
import ImageSection from './components/ImageSection';
import ZoneSection from './components/ZoneSection';
import './home.css';

/** Public landing page for `/` and `/home`; rendered inside DeskLayout (which owns header and footer). */
export default function HomePage() {
  return (
    <div className="slg-home">
      <HeroSection />
      <FeatureSection />
      <GpuSection />
      <ZoneSection />
      <ImageSection />
      <BillingSection />
      <CtaSection />
    </div>
  );
}
