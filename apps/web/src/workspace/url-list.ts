// A list's page and filter live in the address (`?page=2&q=ali`), so a link, a reload and the
// browser's back and forward keep them. Two lists on one tab keep apart by a prefix
// (`?groups-page=2`). A page change is a step in the history; typing a filter replaces the
// current entry (one step per filter, not per key) and goes back to page 1.
import { useSearchParams } from 'react-router';

/** Rows per page of a workspace list. */
export const LIST_PAGE_SIZE = 20;

/** The page the address asks for: a whole number from 1, anything else is page 1. */
export function pageFromParam(value: string | null): number {
  const page = Number(value ?? '1');
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function useUrlPage(prefix = ''): [page: number, setPage: (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const key = `${prefix}page`;
  const setPage = (page: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (page <= 1) next.delete(key);
      else next.set(key, String(page));
      return next;
    });
  return [pageFromParam(params.get(key)), setPage];
}

export interface UrlList<Item> {
  /** The rows of the page shown. */
  shown: Item[];
  page: number;
  pages: number;
  /** How many rows the filter lets through, and how many there are. */
  matched: number;
  total: number;
  query: string;
  setQuery: (query: string) => void;
  setPage: (page: number) => void;
}

/** One page of `items`, those whose `text` contains the filter (any case), as the address says. */
export function useUrlList<Item>(
  items: readonly Item[],
  text: (item: Item) => string,
  { prefix = '', pageSize = LIST_PAGE_SIZE }: { prefix?: string; pageSize?: number } = {},
): UrlList<Item> {
  const [params, setParams] = useSearchParams();
  const [requested, setPage] = useUrlPage(prefix);
  const queryKey = `${prefix}q`;
  const query = params.get(queryKey) ?? '';
  const needle = query.trim().toLocaleLowerCase();
  const matching = needle ? items.filter((item) => text(item).toLocaleLowerCase().includes(needle)) : items;
  const pages = Math.max(1, Math.ceil(matching.length / pageSize));
  // Past the end (a row deleted, an old link): the last page.
  const page = Math.min(requested, pages);
  const setQuery = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '') next.delete(queryKey);
        else next.set(queryKey, value);
        next.delete(`${prefix}page`);
        return next;
      },
      { replace: true },
    );
  return {
    shown: matching.slice((page - 1) * pageSize, page * pageSize),
    page,
    pages,
    matched: matching.length,
    total: items.length,
    query,
    setQuery,
    setPage,
  };
}
