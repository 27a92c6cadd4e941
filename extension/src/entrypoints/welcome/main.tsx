import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createRoot } from "react-dom/client";
import { StyleTag } from "../../lib/ui/StyleTag";
import { Welcome } from "./Welcome";

// The first-run page: the background opens it once, when the extension is installed.
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <QueryClientProvider client={new QueryClient()}>
      <StyleTag />
      <Welcome />
    </QueryClientProvider>,
  );
}
