import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createRoot } from "react-dom/client";
import { StyleTag } from "../../lib/ui/StyleTag";
import { Options } from "./Options";

const root = document.getElementById("root");
if (root) {
  // Storage reads do not fail transiently: an unreadable value is shown at once, not retried.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  createRoot(root).render(
    <QueryClientProvider client={client}>
      <StyleTag />
      <Options />
    </QueryClientProvider>,
  );
}
