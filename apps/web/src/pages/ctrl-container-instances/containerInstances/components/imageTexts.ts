import { IMAGE_NAME_MAX } from '@slg/shared';

const gb = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)} GB`;
const LOST = '系统盘上的所有改动（安装的软件、修改的系统文件以及存放在系统盘上的数据）将丢失且无法恢复；数据盘的数据保留。完成后实例为「已关机」。';

/** 更换镜像, 重置系统 and 保存镜像 of the instance list's 更多 menu. */
export const IMAGE_DIALOG_TEXTS = {
  cancel: '再想想',
  change: {
    title: (name: string) => `更换镜像：${name}`,
    warning: `将按所选镜像重建系统盘：${LOST}`,
    current: (image: string) => `当前镜像：${image}`,
    label: '新镜像',
    placeholder: '请选择镜像',
    required: '请选择要更换的镜像',
    publicGroup: '公共镜像',
    mineGroup: '我的镜像',
    sharedGroup: '他人分享的镜像',
    sharedFrom: (phone: string) => `（来自 ${phone}）`,
    incompatible: (cuda: string, host: string) => `（需 CUDA ${cuda}，主机最高支持 ${host}）`,
    hostCuda: (cuda: string) => `实例所在主机的驱动最高支持 CUDA ${cuda}，更高版本的镜像不可选。`,
    loading: '镜像加载中…',
    privateFailed: '我的镜像加载失败，暂只能选择公共镜像',
    submit: '更换镜像',
    done: '已开始更换镜像，完成后实例为已关机',
  },
  reset: {
    title: (name: string) => `重置系统：${name}？`,
    body: (image: string) => `将按实例当前的镜像「${image}」重建系统盘：${LOST}`,
    acknowledge: '我已了解：系统盘上的改动将丢失，数据盘保留',
    submit: '重置系统',
    done: '已开始重置系统，完成后实例为已关机',
  },
  save: {
    title: (name: string) => `保存镜像：${name}`,
    body: '把实例的系统盘保存为私有镜像（不含数据盘），之后可用它创建实例或更换镜像。保存期间实例不能开机。',
    name: '镜像名称',
    nameRequired: '请输入镜像名称',
    nameExtra: `1-${IMAGE_NAME_MAX}个字符`,
    defaultName: (instance: string) => `${instance}-镜像`.slice(0, IMAGE_NAME_MAX),
    usage: (used: number, quota: number, left: number) => `镜像存储：已用 ${gb(used)} / 免费额度 ${gb(quota)}，剩余 ${gb(left)}`,
    full: (used: number, quota: number) => `镜像存储已用 ${gb(used)}，已达免费额度 ${gb(quota)}，请先在「我的镜像」删除不再使用的镜像。`,
    needsOff: '请先关机再保存镜像',
    submit: '保存镜像',
    done: '正在保存镜像，可在「我的镜像」查看进度',
  },
} as const;
