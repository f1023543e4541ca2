import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * The test model: a llama-architecture GGUF of ~0.4 MB with deterministic random weights, generated
 * here because no model weights can be downloaded on the machines this project is built and tested on.
 * llama.cpp (node-llama-cpp) loads and runs it like any GGUF: the tokenizer, the attention, the KV cache,
 * the sampling and the token counts are all real; only what it says is noise — a shuffle of the words in
 * its vocabulary — so the console labels it 测试模型. Real models go in MODELS_DIR (any GGUF llama.cpp
 * runs) or behind the `openai` engine (vLLM, SGLang, Ollama).
 *
 * The file format is GGUF v3 (github.com/ggml-org/ggml docs/gguf.md): header, metadata key/values,
 * tensor infos, then the tensors (F32) aligned to 32 bytes.
 */

const ALIGNMENT = 32;
const N_EMBD = 64;
const N_HEAD = 4;
const N_LAYER = 2;
const N_FF = 128;
const CONTEXT = 2048;

/** What the vocabulary says besides bytes: words the noise is made of, so that it reads as words. */
const WORDS = [
  '算力', '港', '模型', '训练', '推理', '显卡', '数据', '集群', '实例', '镜像', '存储', '任务', '学习', '深度', '网络', '参数', '梯度', '向量', '文本', '图像',
  '你好', '我们', '可以', '使用', '一个', '这个', '没有', '已经', '开始', '完成', '测试', '输出', '输入', '结果', '问题', '时间', '计算', '平台', '服务', '运行',
  '，', '。', '：', '、', '！', '？',
  'the', 'model', 'is', 'a', 'test', 'of', 'GPU', 'cloud', 'and', 'to', 'data', 'token', 'with', 'for', 'on', 'this', 'run', 'fast', 'small', 'noise',
].map((word) => (/^[a-zA-Z]/.test(word) ? `▁${word}` : word));

const enum ValueType {
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

type Metadata = [string, ValueType, unknown, ValueType?][];

class Writer {
  private readonly chunks: Buffer[] = [];
  size = 0;

  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.size += buffer.length;
  }

  u32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value);
    this.push(buffer);
  }

  i32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeInt32LE(value);
    this.push(buffer);
  }

  u64(value: number): void {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(BigInt(value));
    this.push(buffer);
  }

  f32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeFloatLE(value);
    this.push(buffer);
  }

  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }

  value(type: ValueType, value: unknown, itemType?: ValueType): void {
    switch (type) {
      case ValueType.UINT32:
        return this.u32(value as number);
      case ValueType.INT32:
        return this.i32(value as number);
      case ValueType.FLOAT32:
        return this.f32(value as number);
      case ValueType.BOOL:
        return this.push(Buffer.from([value ? 1 : 0]));
      case ValueType.STRING:
        return this.string(value as string);
      case ValueType.ARRAY: {
        const items = value as unknown[];
        if (itemType === undefined) throw new Error('array without item type');
        this.u32(itemType);
        this.u64(items.length);
        for (const item of items) this.value(itemType, item);
        return;
      }
    }
  }

  padTo(alignment: number): void {
    const rest = this.size % alignment;
    if (rest !== 0) this.push(Buffer.alloc(alignment - rest));
  }

  buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** mulberry32: the same weights on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Tensor {
  name: string;
  /** ggml order: the innermost (contiguous) dimension first. */
  dims: number[];
  data: Float32Array;
}

/** The vocabulary: <unk>, <s>, </s>, the 256 byte tokens (byte fallback), then the words. */
function vocabulary() {
  const tokens = ['<unk>', '<s>', '</s>', ...Array.from({ length: 256 }, (_, byte) => `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`), '▁', ...WORDS];
  const types = tokens.map((_, index) => (index === 0 ? 2 : index < 3 ? 3 : index < 259 ? 6 : 1));
  const scores = tokens.map((_, index) => (index < 259 ? 0 : -(index - 259)));
  return { tokens, types, scores };
}

function tensors(vocabSize: number, firstWord: number): Tensor[] {
  const next = random(20261128);
  const matrix = (rows: number, columns: number, scale: number) => Float32Array.from({ length: rows * columns }, () => (next() * 2 - 1) * scale);
  const ones = (length: number) => new Float32Array(length).fill(1);
  const embedding = matrix(vocabSize, N_EMBD, 0.5);
  // The output layer speaks words: bytes and specials get no weight (logit 0), the words a strong one,
  // and </s> a share that ends an answer now and then.
  const output = matrix(vocabSize, N_EMBD, 1.5);
  for (let token = 0; token < firstWord; token += 1) output.fill(0, token * N_EMBD, (token + 1) * N_EMBD);
  const list: Tensor[] = [
    { name: 'token_embd.weight', dims: [N_EMBD, vocabSize], data: embedding },
    { name: 'output_norm.weight', dims: [N_EMBD], data: ones(N_EMBD) },
    { name: 'output.weight', dims: [N_EMBD, vocabSize], data: output },
  ];
  for (let layer = 0; layer < N_LAYER; layer += 1) {
    const scale = 1 / Math.sqrt(N_EMBD);
    list.push(
      { name: `blk.${layer}.attn_norm.weight`, dims: [N_EMBD], data: ones(N_EMBD) },
      { name: `blk.${layer}.attn_q.weight`, dims: [N_EMBD, N_EMBD], data: matrix(N_EMBD, N_EMBD, scale) },
      { name: `blk.${layer}.attn_k.weight`, dims: [N_EMBD, N_EMBD], data: matrix(N_EMBD, N_EMBD, scale) },
      { name: `blk.${layer}.attn_v.weight`, dims: [N_EMBD, N_EMBD], data: matrix(N_EMBD, N_EMBD, scale) },
      { name: `blk.${layer}.attn_output.weight`, dims: [N_EMBD, N_EMBD], data: matrix(N_EMBD, N_EMBD, scale) },
      { name: `blk.${layer}.ffn_norm.weight`, dims: [N_EMBD], data: ones(N_EMBD) },
      { name: `blk.${layer}.ffn_gate.weight`, dims: [N_EMBD, N_FF], data: matrix(N_FF, N_EMBD, scale) },
      { name: `blk.${layer}.ffn_up.weight`, dims: [N_EMBD, N_FF], data: matrix(N_FF, N_EMBD, scale) },
      { name: `blk.${layer}.ffn_down.weight`, dims: [N_FF, N_EMBD], data: matrix(N_EMBD, N_FF, 1 / Math.sqrt(N_FF)) },
    );
  }
  return list;
}

/** The test model's GGUF bytes. */
export function tinyModelGguf(name = 'slg-tiny-test'): Buffer {
  const { tokens, types, scores } = vocabulary();
  const firstWord = 259;
  const metadata: Metadata = [
    ['general.architecture', ValueType.STRING, 'llama'],
    ['general.name', ValueType.STRING, name],
    ['general.alignment', ValueType.UINT32, ALIGNMENT],
    ['general.file_type', ValueType.UINT32, 0],
    ['llama.context_length', ValueType.UINT32, CONTEXT],
    ['llama.embedding_length', ValueType.UINT32, N_EMBD],
    ['llama.block_count', ValueType.UINT32, N_LAYER],
    ['llama.feed_forward_length', ValueType.UINT32, N_FF],
    ['llama.attention.head_count', ValueType.UINT32, N_HEAD],
    ['llama.attention.head_count_kv', ValueType.UINT32, N_HEAD],
    ['llama.attention.layer_norm_rms_epsilon', ValueType.FLOAT32, 1e-5],
    ['llama.rope.dimension_count', ValueType.UINT32, N_EMBD / N_HEAD],
    ['llama.vocab_size', ValueType.UINT32, tokens.length],
    ['tokenizer.ggml.model', ValueType.STRING, 'llama'],
    ['tokenizer.ggml.tokens', ValueType.ARRAY, tokens, ValueType.STRING],
    ['tokenizer.ggml.scores', ValueType.ARRAY, scores, ValueType.FLOAT32],
    ['tokenizer.ggml.token_type', ValueType.ARRAY, types, ValueType.INT32],
    ['tokenizer.ggml.unknown_token_id', ValueType.UINT32, 0],
    ['tokenizer.ggml.bos_token_id', ValueType.UINT32, 1],
    ['tokenizer.ggml.eos_token_id', ValueType.UINT32, 2],
    ['tokenizer.ggml.add_bos_token', ValueType.BOOL, true],
    ['tokenizer.ggml.add_eos_token', ValueType.BOOL, false],
  ];
  const list = tensors(tokens.length, firstWord);
  const file = new Writer();
  file.push(Buffer.from('GGUF', 'ascii'));
  file.u32(3);
  file.u64(list.length);
  file.u64(metadata.length);
  for (const [key, type, value, itemType] of metadata) {
    file.string(key);
    file.u32(type);
    file.value(type, value, itemType);
  }
  let offset = 0;
  for (const tensor of list) {
    file.string(tensor.name);
    file.u32(tensor.dims.length);
    for (const dim of tensor.dims) file.u64(dim);
    file.u32(0); // F32
    file.u64(offset);
    offset += tensor.data.byteLength;
    offset += (ALIGNMENT - (offset % ALIGNMENT)) % ALIGNMENT;
  }
  file.padTo(ALIGNMENT);
  for (const tensor of list) {
    file.push(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    file.padTo(ALIGNMENT);
  }
  return file.buffer();
}

/** Writes the test model to `path` (whole or not at all). */
export async function writeTinyModel(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.${randomUUID()}.partial`;
  await writeFile(partial, tinyModelGguf());
  await rename(partial, path);
}
