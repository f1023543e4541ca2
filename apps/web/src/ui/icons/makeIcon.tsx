/**
 * Ant Design's icons drawn from their SVG files (@ant-design/icons-svg/inline-svg) by a small component
 * of our own. @ant-design/icons' components bring a context, a style injector and the two-tone colour
 * generator with them; the public, sign-in and console chrome need only the shapes.
 *
 * One module per icon (`ui/icons/<Name>.ts`, named as in @ant-design/icons), imported directly and
 * never through an index: an icon's shape then loads in the chunk of the code that draws it, not every
 * icon with the first one used. The shapes are the SVG files, not the definitions @ant-design/icons
 * uses, so an icon a page shares with an antd component does not become a chunk of its own. To add an
 * icon, copy one of the three-line modules.
 */
import type { CSSProperties } from 'react';

export interface IconProps {
  className?: string;
  style?: CSSProperties;
  /** Turns continuously (a loading indicator). */
  spin?: boolean;
  /**
   * Icons are decoration next to a text that says the same; one that stands alone gets a label
   * (then it is an image with that name).
   */
  label?: string;
  /** Accepted for symmetry with @ant-design/icons; icons are hidden unless they have a label. */
  'aria-hidden'?: boolean | 'true' | 'false';
}

export type IconComponent = (props: IconProps) => React.JSX.Element;

const SVG_FILE = /^<svg viewBox="([^"]+)"[^>]*>([\s\S]*)<\/svg>\s*$/;

/** A component drawing one icon from its SVG file (`<svg viewBox="…" …>shapes</svg>`). */
export function makeIcon(name: string, svgFile: string): IconComponent {
  const [, viewBox, shapes = ''] = SVG_FILE.exec(svgFile) ?? [];
  // The shapes come from the icon package at build time, never from user input.
  const inner = { __html: shapes };
  function Icon({ className, style, spin = false, label }: IconProps) {
    return (
      <span
        className={['slg-icon', spin ? 'slg-icon-spin' : '', className ?? ''].filter(Boolean).join(' ')}
        style={style}
        role={label ? 'img' : undefined}
        aria-label={label}
        aria-hidden={label ? undefined : true}
      >
        <svg viewBox={viewBox} width="1em" height="1em" fill="currentColor" focusable="false" aria-hidden="true" dangerouslySetInnerHTML={inner} />
      </span>
    );
  }
  Icon.displayName = name;
  return Icon;
}
