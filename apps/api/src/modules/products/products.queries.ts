// The only SQL on the catalogue.
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { productOptions, productPeriods, products } from './products.table.ts';

export type ProductRow = typeof products.$inferSelect;
export type ProductOptionRow = typeof productOptions.$inferSelect;
export type ProductPeriodRow = typeof productPeriods.$inferSelect;
export interface ProductRecord extends ProductRow {
  options: ProductOptionRow[];
  periods: ProductPeriodRow[];
}

export interface ProductInput {
  product: typeof products.$inferInsert;
  options: Array<Omit<typeof productOptions.$inferInsert, 'productId' | 'id'>>;
  periods: Array<Omit<typeof productPeriods.$inferInsert, 'productId'>>;
}

export function createProductsQueries(db: Db) {
  async function attach(rows: ProductRow[]): Promise<ProductRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [options, periods] = await Promise.all([
      db
        .select()
        .from(productOptions)
        .where(inArray(productOptions.productId, ids))
        .orderBy(asc(productOptions.id)),
      db
        .select()
        .from(productPeriods)
        .where(inArray(productPeriods.productId, ids))
        .orderBy(asc(productPeriods.months)),
    ]);
    return rows.map((row) => ({
      ...row,
      options: options.filter((option) => option.productId === row.id),
      periods: periods.filter((period) => period.productId === row.id),
    }));
  }

  return {
    async list(activeOnly: boolean): Promise<ProductRecord[]> {
      const query = db.select().from(products).orderBy(asc(products.sortOrder), asc(products.id));
      return attach(activeOnly ? await query.where(eq(products.isActive, true)) : await query);
    },

    async find(id: string): Promise<ProductRecord | undefined> {
      return (await attach(await db.select().from(products).where(eq(products.id, id)).limit(1)))[0];
    },

    async count(): Promise<number> {
      return (await db.select({ id: products.id }).from(products)).length;
    },

    /** Writes one product with its options and periods, replacing what it had. */
    async save(input: ProductInput): Promise<void> {
      await db.transaction(async (tx) => {
        const { id, ...fields } = input.product;
        await tx
          .insert(products)
          .values(input.product)
          .onConflictDoUpdate({ target: products.id, set: { ...fields, updatedAt: new Date() } });
        await tx.delete(productOptions).where(eq(productOptions.productId, id));
        await tx.delete(productPeriods).where(eq(productPeriods.productId, id));
        if (input.options.length > 0) {
          await tx
            .insert(productOptions)
            .values(input.options.map((option) => ({ ...option, productId: id })));
        }
        if (input.periods.length > 0) {
          await tx
            .insert(productPeriods)
            .values(input.periods.map((period) => ({ ...period, productId: id })));
        }
      });
    },

    async update(
      id: string,
      fields: Partial<Pick<ProductRow, 'priceMinor' | 'isActive' | 'name'>>,
    ): Promise<boolean> {
      const rows = await db
        .update(products)
        .set({ ...fields, updatedAt: new Date() })
        .where(eq(products.id, id))
        .returning({ id: products.id });
      return rows.length === 1;
    },
  };
}

export type ProductsQueries = ReturnType<typeof createProductsQueries>;
