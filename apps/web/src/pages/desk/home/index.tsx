import { lazy, Suspense } from 'react';
import HeroSection from './components/HeroSection';
import './home.css';

// What a phone shows first is the hero; the sections below load as their own chunk meanwhile, so the
// first load carries less script and the first layout has less to lay out.
const BelowTheFold = lazy(() => import('./components/BelowTheFold'));

/** Public landing page for `/` and `/home`; rendered inside DeskLayout (which owns header and footer). */
export default function HomePage() {
  return (
    <div className="slg-home">
      <HeroSection />
      <Suspense fallback={null}>
        <BelowTheFold />
      </Suspense>
    </div>
  );
}
