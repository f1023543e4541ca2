/**
 * First-start contents of the metadata tables (zones, GPU models, CPU models, public images).
 * The operator edits the rows afterwards; ids are short stable slugs that other tables and the
 * console may keep, so never rename one here — add a new row and disable the old one instead.
 * GPU figures are the vendors' published FP32 peak; prices are reference usage prices in fen per
 * GPU-hour.
 */
import type { cpuModels, gpuModels, publicImages, zones } from '../schema/meta.js';

type ZoneSeed = Required<Pick<typeof zones.$inferInsert, 'id' | 'name' | 'region' | 'description' | 'sortOrder'>>;
type GpuSeed = Required<
  Pick<
    typeof gpuModels.$inferInsert,
    'id' | 'name' | 'memoryGb' | 'vendor' | 'architecture' | 'fp32Tflops' | 'pricePerHourFen' | 'sortOrder'
  >
>;
type CpuSeed = Required<Pick<typeof cpuModels.$inferInsert, 'id' | 'name' | 'cores' | 'baseClockGhz' | 'sortOrder'>>;
type ImageSeed = Required<
  Pick<
    typeof publicImages.$inferInsert,
    'id' | 'name' | 'framework' | 'frameworkVersion' | 'python' | 'cuda' | 'ubuntu' | 'sizeGb' | 'sortOrder'
  >
>;

export const SEED_ZONES: readonly ZoneSeed[] = [
  { id: 'bj-a', name: '北京A区', region: '华北', description: '北京一期机房，RTX 4090 / 3090 资源充足，适合训练与推理', sortOrder: 1 },
  { id: 'bj-b', name: '北京B区', region: '华北', description: 'A800 / H800 大显存集群，NVLink 互联，适合大模型训练与微调', sortOrder: 2 },
  { id: 'nm-b', name: '内蒙B区', region: '华北', description: '乌兰察布绿电机房，电价低，适合长时间训练任务', sortOrder: 3 },
  { id: 'xb-a', name: '西北A区', region: '西北', description: '庆阳算力枢纽，V100 / RTX 3090 高性价比', sortOrder: 4 },
  { id: 'hd-a', name: '华东A区(上海)', region: '华东', description: '上海机房，L20 / RTX 4090，低延迟覆盖长三角', sortOrder: 5 },
  { id: 'hn-a', name: '华南A区(广州)', region: '华南', description: '广州机房，RTX 4090D / 4090，低延迟覆盖珠三角', sortOrder: 6 },
  { id: 'cq-a', name: '重庆A区', region: '西南', description: '西南算力枢纽，A100 / RTX 4090，覆盖川渝地区', sortOrder: 7 },
];

export const SEED_GPUS: readonly GpuSeed[] = [
  { id: 'rtx4090', name: 'RTX 4090', memoryGb: 24, vendor: 'NVIDIA', architecture: 'Ada Lovelace', fp32Tflops: 82.6, pricePerHourFen: 198, sortOrder: 1 },
  { id: 'rtx4090d', name: 'RTX 4090D', memoryGb: 24, vendor: 'NVIDIA', architecture: 'Ada Lovelace', fp32Tflops: 73.5, pricePerHourFen: 178, sortOrder: 2 },
  { id: 'rtx3090', name: 'RTX 3090', memoryGb: 24, vendor: 'NVIDIA', architecture: 'Ampere', fp32Tflops: 35.6, pricePerHourFen: 132, sortOrder: 3 },
  { id: 'l20', name: 'L20', memoryGb: 48, vendor: 'NVIDIA', architecture: 'Ada Lovelace', fp32Tflops: 59.8, pricePerHourFen: 358, sortOrder: 4 },
  { id: 'v100-32g', name: 'V100-32GB', memoryGb: 32, vendor: 'NVIDIA', architecture: 'Volta', fp32Tflops: 15.7, pricePerHourFen: 188, sortOrder: 5 },
  { id: 'a100-40g-pcie', name: 'A100-40GB PCIe', memoryGb: 40, vendor: 'NVIDIA', architecture: 'Ampere', fp32Tflops: 19.5, pricePerHourFen: 428, sortOrder: 6 },
  { id: 'a800-80g', name: 'A800-80GB', memoryGb: 80, vendor: 'NVIDIA', architecture: 'Ampere', fp32Tflops: 19.5, pricePerHourFen: 598, sortOrder: 7 },
  { id: 'h800-80g', name: 'H800-80GB', memoryGb: 80, vendor: 'NVIDIA', architecture: 'Hopper', fp32Tflops: 51.2, pricePerHourFen: 1299, sortOrder: 8 },
];

export const SEED_CPUS: readonly CpuSeed[] = [
  { id: 'xeon-8352v', name: 'Intel Xeon Platinum 8352V', cores: 36, baseClockGhz: 2.1, sortOrder: 1 },
  { id: 'xeon-8358p', name: 'Intel Xeon Platinum 8358P', cores: 32, baseClockGhz: 2.6, sortOrder: 2 },
  { id: 'xeon-6430', name: 'Intel Xeon Gold 6430', cores: 32, baseClockGhz: 2.1, sortOrder: 3 },
  { id: 'xeon-8480p', name: 'Intel Xeon Platinum 8480+', cores: 56, baseClockGhz: 2.0, sortOrder: 4 },
  { id: 'xeon-6248r', name: 'Intel Xeon Gold 6248R', cores: 24, baseClockGhz: 3.0, sortOrder: 5 },
  { id: 'epyc-7543', name: 'AMD EPYC 7543', cores: 32, baseClockGhz: 2.8, sortOrder: 6 },
  { id: 'epyc-7763', name: 'AMD EPYC 7763', cores: 64, baseClockGhz: 2.45, sortOrder: 7 },
];

export const SEED_PUBLIC_IMAGES: readonly ImageSeed[] = [
  image('PyTorch', '2.5.1', '3.12', '12.4', '22.04', 14.2, 1),
  image('PyTorch', '2.3.0', '3.12', '12.1', '22.04', 13.6, 2),
  image('PyTorch', '2.1.2', '3.10', '11.8', '22.04', 12.1, 3),
  image('PyTorch', '1.13.1', '3.8', '11.7', '20.04', 9.8, 4),
  image('TensorFlow', '2.15.0', '3.10', '12.2', '22.04', 11.4, 5),
  image('TensorFlow', '2.9.0', '3.8', '11.2', '20.04', 8.7, 6),
  image('CUDA', '12.4', '3.12', '12.4', '22.04', 6.3, 7),
  image('CUDA', '11.8', '3.10', '11.8', '22.04', 5.6, 8),
  image('Miniconda', 'conda3', '3.12', '12.4', '22.04', 4.9, 9),
  image('Miniconda', 'conda3', '3.10', '11.8', '22.04', 4.2, 10),
];

/**
 * Ids like `pytorch-2.5.1-py3.12-cu124` (CUDA base images: `cuda-12.4-py3.12-ubuntu22.04`); names like
 * `PyTorch 2.5.1 (Python 3.12, CUDA 12.4, Ubuntu 22.04)`.
 */
function image(
  framework: string,
  frameworkVersion: string,
  python: string,
  cuda: string,
  ubuntu: string,
  sizeGb: number,
  sortOrder: number,
): ImageSeed {
  const cudaBase = framework === 'CUDA';
  const id = cudaBase
    ? `cuda-${cuda}-py${python}-ubuntu${ubuntu}`
    : `${framework.toLowerCase()}-${frameworkVersion}-py${python}-cu${cuda.replace('.', '')}`;
  const name = cudaBase
    ? `CUDA ${cuda} 基础镜像 (Python ${python}, Ubuntu ${ubuntu})`
    : `${framework} ${frameworkVersion} (Python ${python}, CUDA ${cuda}, Ubuntu ${ubuntu})`;
  return {
    id,
    name,
    framework,
    frameworkVersion,
    python,
    cuda,
    ubuntu,
    sizeGb,
    sortOrder,
  };
}
