import { defineConfig } from "vite";

// No React plugin: esbuild compiles TSX with the automatic runtime, which is
// all the client needs (no fast refresh in `npm run dev`).
export default defineConfig({
  esbuild: { jsx: "automatic" },
  build: {
    outDir: "dist",
    // dist/.gitignore is committed (the Go embed needs a file); the build
    // script removes the old assets itself.
    emptyOutDir: false,
    sourcemap: false,
    // The CSP allows no inline script: never inline the module preload polyfill.
    modulePreload: { polyfill: false },
    rollupOptions: {
      // React Query marks its modules "use client" for server components; harmless here.
      onwarn(w, warn) {
        if (w.code !== "MODULE_LEVEL_DIRECTIVE") warn(w);
      },
    },
  },
  server: {
    proxy: { "/api": "http://localhost:8080", "/uploads": "http://localhost:8080" },
  },
  test: { environment: "node", include: ["src/**/*.test.ts"] },
});
