/**
 * A Cytoscape graph. Edges are drawn as bezier curves, so an edge A→B and its reverse
 * B→A are two separate arcs, never one line.
 */
import cytoscape, { type ElementDefinition, type LayoutOptions } from "cytoscape";
import { useEffect, useRef } from "preact/hooks";

export interface GraphProps {
  readonly elements: ReadonlyArray<ElementDefinition>;
  readonly layout?: LayoutOptions;
  readonly height?: number;
  readonly testId?: string;
  readonly onNode?: (id: string) => void;
}

const style: Array<cytoscape.StylesheetJson[number]> = [
  {
    selector: "node",
    style: {
      label: "data(label)",
      "font-size": 10,
      "text-valign": "bottom",
      "text-margin-y": 3,
      width: 18,
      height: 18,
      "background-color": "data(color)",
    },
  },
  {
    selector: "edge",
    style: {
      "curve-style": "bezier",
      "control-point-step-size": 28,
      "target-arrow-shape": "triangle",
      "arrow-scale": 0.9,
      width: "data(width)",
      "line-color": "data(color)",
      "target-arrow-color": "data(color)",
      label: "data(label)",
      "font-size": 8,
      "text-rotation": "autorotate",
      "text-background-color": "#fff",
      "text-background-opacity": 0.8,
    },
  },
];

export const Graph = (props: GraphProps) => {
  const box = useRef<HTMLDivElement>(null);
  const onNode = useRef(props.onNode);
  onNode.current = props.onNode;
  useEffect(() => {
    if (!box.current) return;
    const cy = cytoscape({
      container: box.current,
      elements: [...props.elements],
      style,
      layout: props.layout ?? { name: "circle" },
      wheelSensitivity: 0.3,
    });
    cy.on("tap", "node", (e) => onNode.current?.(e.target.id()));
    (box.current as unknown as { cy: cytoscape.Core }).cy = cy;
    return () => cy.destroy();
  }, [props.elements, props.layout]);
  return (
    <div
      ref={box}
      class="graph"
      style={{ height: `${props.height ?? 360}px` }}
      data-testid={props.testId}
    />
  );
};
