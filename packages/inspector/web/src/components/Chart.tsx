/** A Chart.js chart in a canvas, rebuilt when its config changes. */
import {
  BarController,
  BarElement,
  CategoryScale,
  type ChartConfiguration,
  Chart as ChartJs,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { useEffect, useRef } from "preact/hooks";

ChartJs.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  Legend,
);

export const Chart = (props: {
  readonly config: ChartConfiguration;
  readonly height?: number;
  readonly testId?: string;
}) => {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new ChartJs(canvas.current, {
      ...props.config,
      options: { animation: false, maintainAspectRatio: false, ...props.config.options },
    });
    return () => chart.destroy();
  }, [props.config]);
  return (
    <div
      style={{ height: `${props.height ?? 260}px`, position: "relative" }}
      data-testid={props.testId}
    >
      <canvas ref={canvas} />
    </div>
  );
};
