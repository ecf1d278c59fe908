import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // Bundle these into the server build: only the icons and primitives we use are
  // loaded, instead of every lucide icon module at start (tens of MB of RSS).
  ssr: { noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//] },
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
});
