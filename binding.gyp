{
  "targets": [
    {
      "target_name": "rocm_perf_scan",
      "sources": [
        "src/collect/native/addon.c",
        "src/collect/native/intern-table.c",
        "src/collect/native/parse-values.c",
        "src/collect/native/plain-byte.c",
        "src/collect/native/scan-lines.c",
        "src/collect/native/scan-template.c",
        "src/collect/native/scan-zot.c"
      ],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-std=gnu11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra"],
      "xcode_settings": { "OTHER_CFLAGS": ["-std=gnu11", "-O2", "-ffp-contract=off"] }
    }
  ]
}
