import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createRoot } from "react-dom/client";
import { StyleTag } from "../../lib/ui/StyleTag";
import { Options } from "./Options";

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <QueryClientProvider client={new QueryClient()}>
      <StyleTag />
      <Options />
    </QueryClientProvider>,
  );
}
