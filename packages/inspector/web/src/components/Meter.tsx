/** A thin horizontal bar: `value` out of `max`, red when over. */
export const Meter = (props: {
  readonly value: number;
  readonly max: number;
  readonly label?: string;
}) => {
  const share = props.max > 0 ? Math.min(1, props.value / props.max) : 0;
  return (
    <span class="meter" title={props.label ?? `${props.value} / ${props.max}`}>
      <span
        class={props.value > props.max ? "over" : ""}
        style={{ width: `${(share * 100).toFixed(1)}%` }}
      />
    </span>
  );
};
