/** Previous/next buttons over a server-side page of rows. */
export const Pager = (props: {
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  readonly onOffset: (offset: number) => void;
}) => {
  const { total, offset, limit } = props;
  if (total <= limit) return <small>{total} in all</small>;
  return (
    <div class="pager">
      <button
        type="button"
        class="secondary outline"
        disabled={offset === 0}
        onClick={() => props.onOffset(Math.max(0, offset - limit))}
      >
        ‹ prev
      </button>
      <small>
        {offset + 1}–{Math.min(total, offset + limit)} of {total}
      </small>
      <button
        type="button"
        class="secondary outline"
        disabled={offset + limit >= total}
        onClick={() => props.onOffset(offset + limit)}
      >
        next ›
      </button>
    </div>
  );
};
