/**
 * Ant Design's icons drawn from their SVG definitions (@ant-design/icons-svg) by a small component of
 * our own. @ant-design/icons' components bring a context, a style injector and the two-tone colour
 * generator with them; the public, sign-in and console chrome need only the shapes.
 *
 * Add an icon here (one line) before using it; the names are those of @ant-design/icons.
 */
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import ApiOutlinedSvg from '@ant-design/icons-svg/es/asn/ApiOutlined';
import AppstoreOutlinedSvg from '@ant-design/icons-svg/es/asn/AppstoreOutlined';
import ArrowRightOutlinedSvg from '@ant-design/icons-svg/es/asn/ArrowRightOutlined';
import BellOutlinedSvg from '@ant-design/icons-svg/es/asn/BellOutlined';
import CalendarOutlinedSvg from '@ant-design/icons-svg/es/asn/CalendarOutlined';
import CheckCircleFilledSvg from '@ant-design/icons-svg/es/asn/CheckCircleFilled';
import CheckOutlinedSvg from '@ant-design/icons-svg/es/asn/CheckOutlined';
import CloseCircleFilledSvg from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import CloseOutlinedSvg from '@ant-design/icons-svg/es/asn/CloseOutlined';
import CloudServerOutlinedSvg from '@ant-design/icons-svg/es/asn/CloudServerOutlined';
import ClusterOutlinedSvg from '@ant-design/icons-svg/es/asn/ClusterOutlined';
import CodeOutlinedSvg from '@ant-design/icons-svg/es/asn/CodeOutlined';
import ContainerOutlinedSvg from '@ant-design/icons-svg/es/asn/ContainerOutlined';
import DashboardOutlinedSvg from '@ant-design/icons-svg/es/asn/DashboardOutlined';
import DatabaseOutlinedSvg from '@ant-design/icons-svg/es/asn/DatabaseOutlined';
import DeploymentUnitOutlinedSvg from '@ant-design/icons-svg/es/asn/DeploymentUnitOutlined';
import DesktopOutlinedSvg from '@ant-design/icons-svg/es/asn/DesktopOutlined';
import DownOutlinedSvg from '@ant-design/icons-svg/es/asn/DownOutlined';
import EnvironmentOutlinedSvg from '@ant-design/icons-svg/es/asn/EnvironmentOutlined';
import ExclamationCircleFilledSvg from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import ExclamationCircleOutlinedSvg from '@ant-design/icons-svg/es/asn/ExclamationCircleOutlined';
import ExperimentOutlinedSvg from '@ant-design/icons-svg/es/asn/ExperimentOutlined';
import EyeInvisibleOutlinedSvg from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlinedSvg from '@ant-design/icons-svg/es/asn/EyeOutlined';
import FieldTimeOutlinedSvg from '@ant-design/icons-svg/es/asn/FieldTimeOutlined';
import FileProtectOutlinedSvg from '@ant-design/icons-svg/es/asn/FileProtectOutlined';
import HddOutlinedSvg from '@ant-design/icons-svg/es/asn/HddOutlined';
import HomeOutlinedSvg from '@ant-design/icons-svg/es/asn/HomeOutlined';
import InfoCircleFilledSvg from '@ant-design/icons-svg/es/asn/InfoCircleFilled';
import LoadingOutlinedSvg from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import LogoutOutlinedSvg from '@ant-design/icons-svg/es/asn/LogoutOutlined';
import MailOutlinedSvg from '@ant-design/icons-svg/es/asn/MailOutlined';
import MenuFoldOutlinedSvg from '@ant-design/icons-svg/es/asn/MenuFoldOutlined';
import MenuOutlinedSvg from '@ant-design/icons-svg/es/asn/MenuOutlined';
import MenuUnfoldOutlinedSvg from '@ant-design/icons-svg/es/asn/MenuUnfoldOutlined';
import MobileOutlinedSvg from '@ant-design/icons-svg/es/asn/MobileOutlined';
import MoonOutlinedSvg from '@ant-design/icons-svg/es/asn/MoonOutlined';
import ReloadOutlinedSvg from '@ant-design/icons-svg/es/asn/ReloadOutlined';
import RobotOutlinedSvg from '@ant-design/icons-svg/es/asn/RobotOutlined';
import RocketOutlinedSvg from '@ant-design/icons-svg/es/asn/RocketOutlined';
import SafetyCertificateOutlinedSvg from '@ant-design/icons-svg/es/asn/SafetyCertificateOutlined';
import SettingOutlinedSvg from '@ant-design/icons-svg/es/asn/SettingOutlined';
import ShopOutlinedSvg from '@ant-design/icons-svg/es/asn/ShopOutlined';
import SunOutlinedSvg from '@ant-design/icons-svg/es/asn/SunOutlined';
import TeamOutlinedSvg from '@ant-design/icons-svg/es/asn/TeamOutlined';
import ThunderboltOutlinedSvg from '@ant-design/icons-svg/es/asn/ThunderboltOutlined';
import UserOutlinedSvg from '@ant-design/icons-svg/es/asn/UserOutlined';
import WalletOutlinedSvg from '@ant-design/icons-svg/es/asn/WalletOutlined';
import WechatOutlinedSvg from '@ant-design/icons-svg/es/asn/WechatOutlined';
import { createElement, type CSSProperties } from 'react';

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

type SvgNode = { tag: string; attrs: Record<string, string>; children?: SvgNode[] };

function renderNode(node: SvgNode, key: number): React.ReactElement {
  return createElement(node.tag, { key, ...node.attrs }, node.children?.map(renderNode));
}

function makeIcon(definition: IconDefinition): IconComponent {
  const svg = definition.icon as SvgNode;
  function Icon({ className, style, spin = false, label }: IconProps) {
    return (
      <span
        className={['slg-icon', spin ? 'slg-icon-spin' : '', className ?? ''].filter(Boolean).join(' ')}
        style={style}
        role={label ? 'img' : undefined}
        aria-label={label}
        aria-hidden={label ? undefined : true}
      >
        <svg viewBox={svg.attrs.viewBox} width="1em" height="1em" fill="currentColor" focusable="false" aria-hidden="true">
          {svg.children?.map(renderNode)}
        </svg>
      </span>
    );
  }
  Icon.displayName = definition.name;
  return Icon;
}

export const ApiOutlined = /*#__PURE__*/ makeIcon(ApiOutlinedSvg);
export const AppstoreOutlined = /*#__PURE__*/ makeIcon(AppstoreOutlinedSvg);
export const ArrowRightOutlined = /*#__PURE__*/ makeIcon(ArrowRightOutlinedSvg);
export const BellOutlined = /*#__PURE__*/ makeIcon(BellOutlinedSvg);
export const CalendarOutlined = /*#__PURE__*/ makeIcon(CalendarOutlinedSvg);
export const CheckCircleFilled = /*#__PURE__*/ makeIcon(CheckCircleFilledSvg);
export const CheckOutlined = /*#__PURE__*/ makeIcon(CheckOutlinedSvg);
export const CloseCircleFilled = /*#__PURE__*/ makeIcon(CloseCircleFilledSvg);
export const CloseOutlined = /*#__PURE__*/ makeIcon(CloseOutlinedSvg);
export const CloudServerOutlined = /*#__PURE__*/ makeIcon(CloudServerOutlinedSvg);
export const ClusterOutlined = /*#__PURE__*/ makeIcon(ClusterOutlinedSvg);
export const CodeOutlined = /*#__PURE__*/ makeIcon(CodeOutlinedSvg);
export const ContainerOutlined = /*#__PURE__*/ makeIcon(ContainerOutlinedSvg);
export const DashboardOutlined = /*#__PURE__*/ makeIcon(DashboardOutlinedSvg);
export const DatabaseOutlined = /*#__PURE__*/ makeIcon(DatabaseOutlinedSvg);
export const DeploymentUnitOutlined = /*#__PURE__*/ makeIcon(DeploymentUnitOutlinedSvg);
export const DesktopOutlined = /*#__PURE__*/ makeIcon(DesktopOutlinedSvg);
export const DownOutlined = /*#__PURE__*/ makeIcon(DownOutlinedSvg);
export const EnvironmentOutlined = /*#__PURE__*/ makeIcon(EnvironmentOutlinedSvg);
export const ExclamationCircleFilled = /*#__PURE__*/ makeIcon(ExclamationCircleFilledSvg);
export const ExclamationCircleOutlined = /*#__PURE__*/ makeIcon(ExclamationCircleOutlinedSvg);
export const ExperimentOutlined = /*#__PURE__*/ makeIcon(ExperimentOutlinedSvg);
export const EyeInvisibleOutlined = /*#__PURE__*/ makeIcon(EyeInvisibleOutlinedSvg);
export const EyeOutlined = /*#__PURE__*/ makeIcon(EyeOutlinedSvg);
export const FieldTimeOutlined = /*#__PURE__*/ makeIcon(FieldTimeOutlinedSvg);
export const FileProtectOutlined = /*#__PURE__*/ makeIcon(FileProtectOutlinedSvg);
export const HddOutlined = /*#__PURE__*/ makeIcon(HddOutlinedSvg);
export const HomeOutlined = /*#__PURE__*/ makeIcon(HomeOutlinedSvg);
export const InfoCircleFilled = /*#__PURE__*/ makeIcon(InfoCircleFilledSvg);
export const LoadingOutlined = /*#__PURE__*/ makeIcon(LoadingOutlinedSvg);
export const LogoutOutlined = /*#__PURE__*/ makeIcon(LogoutOutlinedSvg);
export const MailOutlined = /*#__PURE__*/ makeIcon(MailOutlinedSvg);
export const MenuFoldOutlined = /*#__PURE__*/ makeIcon(MenuFoldOutlinedSvg);
export const MenuOutlined = /*#__PURE__*/ makeIcon(MenuOutlinedSvg);
export const MenuUnfoldOutlined = /*#__PURE__*/ makeIcon(MenuUnfoldOutlinedSvg);
export const MobileOutlined = /*#__PURE__*/ makeIcon(MobileOutlinedSvg);
export const MoonOutlined = /*#__PURE__*/ makeIcon(MoonOutlinedSvg);
export const ReloadOutlined = /*#__PURE__*/ makeIcon(ReloadOutlinedSvg);
export const RobotOutlined = /*#__PURE__*/ makeIcon(RobotOutlinedSvg);
export const RocketOutlined = /*#__PURE__*/ makeIcon(RocketOutlinedSvg);
export const SafetyCertificateOutlined = /*#__PURE__*/ makeIcon(SafetyCertificateOutlinedSvg);
export const SettingOutlined = /*#__PURE__*/ makeIcon(SettingOutlinedSvg);
export const ShopOutlined = /*#__PURE__*/ makeIcon(ShopOutlinedSvg);
export const SunOutlined = /*#__PURE__*/ makeIcon(SunOutlinedSvg);
export const TeamOutlined = /*#__PURE__*/ makeIcon(TeamOutlinedSvg);
export const ThunderboltOutlined = /*#__PURE__*/ makeIcon(ThunderboltOutlinedSvg);
export const UserOutlined = /*#__PURE__*/ makeIcon(UserOutlinedSvg);
export const WalletOutlined = /*#__PURE__*/ makeIcon(WalletOutlinedSvg);
export const WechatOutlined = /*#__PURE__*/ makeIcon(WechatOutlinedSvg);
