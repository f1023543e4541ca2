/** Test data shared by the 弹性部署 pages' tests. */
import type { ElasticContainerView, ElasticDeploymentView, ElasticOverview, ElasticStockView, TimePackView } from '../../api/elastic';

/** A running replica set of 3 containers with 1 RTX 4090 each: 2 run, 1 waits for stock. */
export const DEPLOYMENT: ElasticDeploymentView = {
  id: 7,
  deploymentUid: '3f1c2a52-0d5b-4a3e-9a3f-1f2d3c4b5a69',
  name: 'llm-serve',
  type: 'REPLICA_SET',
  status: 'RUNNING',
  statusReason: null,
  locked: false,
  replicaNum: 3,
  parallelismNum: 1,
  runningNum: 2,
  liveNum: 3,
  waitingNum: 1,
  waitingReason: '等待资源：所选GPU型号当前没有空闲 1 卡 GPU 的主机',
  succeededNum: 0,
  failedNum: 0,
  gpuNum: 1,
  imageId: 'pytorch-2.5.1',
  imageName: 'PyTorch 2.5.1',
  zoneIds: ['bj-a'],
  gpuModelIds: [],
  cudaMin: null,
  priceMaxFen: null,
  cmd: 'python serve.py',
  env: { MODEL: 'qwen' },
  ports: [{ port: 8000, protocol: 1 }],
  costPerHourFen: 360,
  createdAt: '2026-06-01T02:00:00Z',
  finishedAt: null,
};

/** A running container of DEPLOYMENT. */
export const CONTAINER: ElasticContainerView = {
  instanceId: 'slg-aaaaaaaaaa',
  deploymentUid: DEPLOYMENT.deploymentUid,
  deploymentName: DEPLOYMENT.name,
  status: 'PoweredOn',
  statusReason: null,
  hostId: 'bj-a-4090-01',
  hostName: '北京A区-4090-01',
  zoneId: 'bj-a',
  zoneName: '北京A区',
  gpuModelId: 'rtx4090',
  gpuModelName: 'RTX 4090',
  gpuNum: 1,
  templateVersion: 1,
  fileStorage: 'none',
  sshCommand: 'ssh -p 32101 root@bj-a.connect.example.com',
  ports: [{ port: 8000, protocol: 1, address: 'https://slg-aaaaaaaaaa-8000.bj-a.connect.example.com' }],
  startedAt: '2026-06-01T02:01:00Z',
  endedAt: null,
  endReason: null,
  exitCode: null,
  runSeconds: 3725,
  chargedFen: 186,
  packSeconds: 600,
  createdAt: '2026-06-01T02:00:10Z',
};

export const ENDED_CONTAINER: ElasticContainerView = {
  ...CONTAINER,
  instanceId: 'slg-bbbbbbbbbb',
  status: 'PoweredOff',
  sshCommand: null,
  ports: [],
  endedAt: '2026-06-01T03:00:00Z',
  endReason: '命令异常退出（退出码 1）',
  exitCode: 1,
  runSeconds: 3540,
  chargedFen: 177,
  packSeconds: 0,
};

export const STOCK: ElasticStockView[] = [
  { gpuModelId: 'rtx4090', gpuModelName: 'RTX 4090', zoneId: 'bj-a', zoneName: '北京A区', free: 6, total: 16, minPriceFen: 180, maxPriceFen: 220, cudaMax: '12.4' },
  { gpuModelId: 'a100', gpuModelName: 'A100', zoneId: 'bj-a', zoneName: '北京A区', free: 4, total: 8, minPriceFen: 600, maxPriceFen: 700, cudaMax: '12.8' },
];

export const OVERVIEW: ElasticOverview = { running: 2, stopped: 1, containersRunning: 5, costPerHourFen: 900, stock: STOCK };

export const PACK: TimePackView = {
  id: 11,
  gpuModelId: 'rtx4090',
  gpuModelName: 'RTX 4090',
  hours: 100,
  totalSeconds: 360_000,
  balanceSeconds: 90_000,
  status: 'IN_USE',
  expiresAt: '2026-08-30T02:00:00Z',
  paidFen: 16_200,
  refundedFen: 0,
  createdAt: '2026-06-01T02:00:00Z',
};

export const ZONES = [
  { id: 'bj-a', name: '北京A区', region: '华北', description: '' },
  { id: 'sh-b', name: '上海B区', region: '华东', description: '' },
];

export const GPUS = [
  { id: 'rtx4090', name: 'RTX 4090', memoryGb: 24, vendor: 'NVIDIA', architecture: 'Ada', fp32Tflops: 82.6, pricePerHourFen: 180 },
  { id: 'a100', name: 'A100', memoryGb: 80, vendor: 'NVIDIA', architecture: 'Ampere', fp32Tflops: 19.5, pricePerHourFen: 600 },
];

export const PUBLIC_IMAGES = [
  {
    id: 'pytorch-2.5.1',
    name: 'PyTorch 2.5.1',
    framework: 'PyTorch',
    frameworkVersion: '2.5.1',
    python: '3.12',
    cuda: '12.4',
    ubuntu: '22.04',
    sizeGb: 15,
    imageRef: 'pytorch:2.5.1',
  },
];
