/** Vite imports stylesheets for their side effect. */
declare module "*.css";
