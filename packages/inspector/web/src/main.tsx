/** The inspector page's entry: styles and the app. */
import "@picocss/pico/css/pico.min.css";
import "./style.css";
import { render } from "preact";
import { App } from "./App.tsx";

render(<App />, document.getElementById("app")!);
