import { boolean, integer, pgTable, real, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';

/** Regions (可用区). Seeded on first start; the operator edits them later. */
export const zones = pgTable('zones', {
  id: varchar('id', { length: 32 }).primaryKey(),
  name: varchar('name', { length: 64 }).notNull(),
  region: varchar('region', { length: 32 }).notNull(),
  description: text('description').notNull().default(''),
  sortOrder: smallint('sort_order').notNull().default(0),
  enabled: boolean('enabled').notNull().default(true),
  /** 文件存储 beyond the free 20 GB, fen per GB·day. */
  storagePriceFenPerGbDay: integer('storage_price_fen_per_gb_day').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const gpuModels = pgTable('gpu_models', {
  id: varchar('id', { length: 32 }).primaryKey(),
  name: varchar('name', { length: 64 }).notNull(),
  memoryGb: integer('memory_gb').notNull(),
  vendor: varchar('vendor', { length: 16 }).notNull().default('NVIDIA'),
  architecture: varchar('architecture', { length: 32 }).notNull(),
  fp32Tflops: real('fp32_tflops').notNull(),
  /** Reference usage price, fen per GPU-hour. */
  pricePerHourFen: integer('price_per_hour_fen').notNull(),
  sortOrder: smallint('sort_order').notNull().default(0),
  enabled: boolean('enabled').notNull().default(true),
});

export const cpuModels = pgTable('cpu_models', {
  id: varchar('id', { length: 32 }).primaryKey(),
  name: varchar('name', { length: 96 }).notNull(),
  cores: integer('cores').notNull(),
  baseClockGhz: real('base_clock_ghz').notNull(),
  sortOrder: smallint('sort_order').notNull().default(0),
});

export const publicImages = pgTable('public_images', {
  id: varchar('id', { length: 64 }).primaryKey(),
  name: varchar('name', { length: 128 }).notNull(),
  framework: varchar('framework', { length: 32 }).notNull(),
  frameworkVersion: varchar('framework_version', { length: 32 }).notNull(),
  python: varchar('python', { length: 16 }).notNull(),
  cuda: varchar('cuda', { length: 16 }).notNull(),
  ubuntu: varchar('ubuntu', { length: 16 }).notNull(),
  sizeGb: real('size_gb').notNull(),
  /** The container image a Docker host runs for it (an operator's registry reference); null: the platform's base image (`npm run images`). */
  imageRef: varchar('image_ref', { length: 255 }),
  sortOrder: smallint('sort_order').notNull().default(0),
  enabled: boolean('enabled').notNull().default(true),
});
