import BillingSection from './BillingSection';
import CtaSection from './CtaSection';
import FeatureSection from './FeatureSection';
import GpuSection from './GpuSection';
import ImageSection from './ImageSection';
import ZoneSection from './ZoneSection';

/** The home page under its first screen: a chunk of its own, rendered once the hero has painted. */
export default function BelowTheFold() {
  return (
    <>
      <FeatureSection />
      <GpuSection />
      <ZoneSection />
      <ImageSection />
      <BillingSection />
      <CtaSection />
    </>
  );
}
